import AppStoreServer
import Foundation
import Logging
import VerdictStorage

/// The `sync-history` job: pages Get Transaction History (v2) for one customer, verifies every
/// signed transaction and records it (forward-only), and remembers the response `revision` so
/// the next sync asks only for what changed since.
public struct HistorySyncJob: JobHandler {
    public static let kind = "sync-history"
    public var kind: String { Self.kind }

    let repository: any VerdictRepository
    let verifier: SignedDataVerifier
    let appStore: AppStoreAPIAccess
    let now: @Sendable () -> Date

    public init(repository: any VerdictRepository, verifier: SignedDataVerifier, appStore: AppStoreAPIAccess,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.repository = repository
        self.verifier = verifier
        self.appStore = appStore
        self.now = now
    }

    struct Payload: Codable {
        var originalTransactionId: String
        var environment: String?
    }

    /// A sync job for one customer; at most one is pending per customer.
    public static func job(originalTransactionId: String, environment: String?, at: Int64) -> NewJob {
        let payload = Payload(originalTransactionId: originalTransactionId, environment: environment)
        let json = (try? JSONEncoder.service.encode(payload)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return NewJob(kind: kind, payload: json, dedupeKey: "\(kind):\(originalTransactionId)", runAt: at, createdAt: at)
    }

    public func run(_ job: JobRecord, logger: Logger) async throws -> String? {
        guard let payload = try? JSONDecoder().decode(Payload.self, from: Data(job.job.payload.utf8)) else {
            throw JobFailure.permanent("the job payload is not a sync-history payload")
        }
        let client = try appStore.client(for: payload.environment)
        var revision = try await repository.customer(originalTransactionId: payload.originalTransactionId)?.historyRevision
        var recorded = 0
        var pages = 0
        repeat {
            let page: HistoryResponse
            do {
                page = try await client.getTransactionHistory(transactionId: payload.originalTransactionId, revision: revision)
            } catch {
                throw Self.jobFailure(error)
            }
            pages += 1
            for signed in page.signedTransactions ?? [] {
                do {
                    let transaction = try await verifier.verifyTransaction(signed)
                    if let record = TransactionRecord(transaction), try await repository.recordTransaction(record) {
                        recorded += 1
                    }
                } catch let error as VerificationError where !error.isRetryable {
                    logger.warning("history transaction failed verification", metadata: ["code": .string(error.code)])
                }
            }
            if let next = page.revision, !next.isEmpty {
                revision = next
                try await repository.setHistoryRevision(
                    originalTransactionId: payload.originalTransactionId, revision: next, at: now().appStoreMilliseconds
                )
            }
            guard page.hasMore == true else { break }
        } while pages < AppStoreServerAPIClient.defaultMaxPages
        return #"{"pages":\#(pages),"transactionsRecorded":\#(recorded)}"#
    }

    /// Maps an API failure to a job outcome: Apple's `Retry-After`, retryable → backoff, else dead.
    static func jobFailure(_ failure: AppStoreAPIFailure) -> any Error {
        if let retryAfter = failure.retryAfter {
            return JobFailure.retry(at: retryAfter.appStoreMilliseconds, failure.description)
        }
        return failure.isRetryable ? failure : JobFailure.permanent(failure.description)
    }
}
