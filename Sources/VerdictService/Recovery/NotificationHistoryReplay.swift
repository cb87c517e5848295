import AppStoreServer
import Foundation
import Tracing
import VerdictStorage

/// Pages Get Notification History for a time range and feeds every `signedPayload` through the
/// normal intake (``NotificationIntake``), so recovered notifications are verified, stored once
/// (duplicates skipped by `notificationUUID`) and processed like delivered ones.
public struct NotificationHistoryReplay: Sendable {
    /// Counts of one replay.
    public struct Progress: Sendable, Equatable, CustomStringConvertible {
        public var pages = 0
        public var received = 0
        public var stored = 0
        public var duplicates = 0
        public var rejected = 0

        public var description: String {
            "pages \(pages), notifications \(received): \(stored) new, \(duplicates) already stored, \(rejected) rejected"
        }
    }

    let intake: NotificationIntake
    let client: AppStoreServerAPIClient

    public init(intake: NotificationIntake, client: AppStoreServerAPIClient) {
        self.intake = intake
        self.client = client
    }

    /// Replays `[start, end)`; `onPage` sees the running totals after each page. A notification the
    /// database could not store stops the replay with that error (run it again: it resumes
    /// harmlessly, since stored ones are skipped).
    public func replay(
        start: Date, end: Date, onlyFailures: Bool, source: NotificationSource,
        onPage: @Sendable (Progress) -> Void = { _ in }
    ) async throws -> Progress {
        let request = NotificationHistoryRequest(startDate: start, endDate: end, onlyFailures: onlyFailures ? true : nil)
        var progress = Progress()
        var token: String?
        repeat {
            let page = try await client.getNotificationHistory(paginationToken: token, request: request)
            progress.pages += 1
            for item in page.notificationHistory ?? [] {
                guard let signedPayload = item.signedPayload else { continue }
                progress.received += 1
                switch await accept(signedPayload, source: source) {
                case .success(let outcome):
                    if outcome.isNew { progress.stored += 1 } else { progress.duplicates += 1 }
                case .failure(let error):
                    if case .unavailable = error { throw error }
                    progress.rejected += 1
                }
            }
            onPage(progress)
            guard page.hasMore == true, let next = page.paginationToken, next != token else { break }
            token = next
        } while progress.pages < AppStoreServerAPIClient.defaultMaxPages
        return progress
    }

    /// Takes one recovered notification in, as the root of its own trace (as Apple's POST is for a
    /// delivered one), so its processing job continues that trace.
    private func accept(_ signedPayload: String, source: NotificationSource) async -> Result<NotificationIntake.Outcome, IntakeError> {
        let span = startSpan("recover notification", context: .topLevel, ofKind: .consumer)
        if span.isRecording { span.attributes["verdict.notification.source"] = source.rawValue }
        defer { span.end() }
        return await ServiceContext.$current.withValue(span.context) {
            await TraceRecording.within(span) {
                do throws(IntakeError) {
                    return .success(try await intake.accept(signedPayload: signedPayload, source: source))
                } catch {
                    span.setStatus(SpanStatus(code: .error))
                    return .failure(error)
                }
            }
        }
    }
}
