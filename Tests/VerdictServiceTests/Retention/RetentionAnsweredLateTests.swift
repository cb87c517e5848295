import AppStoreServer
import Foundation
import Testing
@testable import VerdictService
import VerdictStorage
import VerdictTestSupport

/// A cancel-page answer that reaches Apple after its deadline is one Apple never showed (it showed
/// its fallback): the decision is marked answered late, gives the customer's one offer back, and
/// its `retention.answered` event is withdrawn before it is sent.
@Suite struct RetentionAnsweredLateTests {
    static func offered(_ answer: Data) throws -> Bool {
        if case .promotionalOffer = try AppStoreJSON.decoder().decode(RealtimeResponseBody.self, from: answer) { return true }
        return false
    }

    @Test(arguments: TestBackend.selected)
    func anAnswerThatReachedAppleLateUsesNoCapAndSendsNoEvent(_ backend: TestBackend) async throws {
        try await RetentionRealtimeTests.withWebhook(backend) { harness, _ in
            let (_, otid) = try await harness.subscribeFullPriceAnnual()
            let first = try await RetentionRealtimeTests.ask(harness, otid: otid)
            #expect(try Self.offered(first.answer))
            // A second visit to the cancel page: the shipped rules give one offer in 180 days.
            #expect(try Self.offered(try await RetentionRealtimeTests.ask(harness, otid: otid).answer) == false)

            let (_, list) = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)")
            let decisions = list.jsonObject["decisions"]?.arrayValue?.compactMap(\.objectValue) ?? []
            let requestId = first.request.requestIdentifier.uuidString.lowercased()
            let id = try #require(decisions.first { $0["notificationUUID"]?.stringValue == requestId }?["id"]?.stringValue)
            #expect(decisions.allSatisfy { $0["answeredLate"] == nil })
            let key = WebhookEvent.dedupeKey(id)
            #expect(try await harness.service.apps.first.repository.jobs(state: .queued, limit: 100).contains { $0.job.dedupeKey == key },
                    "the event waits out the deadline before it is sent")

            // The first answer finished after the deadline (FirstToFinish hands it over so).
            await harness.service.apps.first.retentionDecider.recordLate(RealtimeAnswer(body: .fallback, cause: .answered, decisionId: id))
            let (_, marked) = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)")
            let late = marked.jsonObject["decisions"]?.arrayValue?.compactMap(\.objectValue).first { $0["id"]?.stringValue == id }
            #expect(late?["answeredLate"]?.boolValue == true)
            #expect(try await harness.service.apps.first.repository.jobs(state: .queued, limit: 100).contains { $0.job.dedupeKey == key } == false)
            // The offer Apple never showed is the customer's to get on the next visit.
            #expect(try Self.offered(try await RetentionRealtimeTests.ask(harness, otid: otid).answer))
            let (_, metrics) = try await harness.request(.GET, "/metrics")
            #expect(String(decoding: metrics, as: UTF8.self).contains(#"verdict_retention_answered_late_total{app="com.example.verdict"} 1"#))
        }
    }
}
