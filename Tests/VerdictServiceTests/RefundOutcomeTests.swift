import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictService
import VerdictTestSupport

/// Apple's outcome joins the record (REFUND with its revocation fields, REFUND_DECLINED,
/// REFUND_REVERSED), and `GET /v1/rules/stats` counts each refund rule's requests, submissions
/// and outcomes; consent assumed by configuration is recorded as such, an explicit refusal wins.
@Suite struct RefundOutcomeTests {
    @Test(arguments: TestBackend.selected)
    func outcomesUpdateTheRecordAndTheStatistics(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let store = harness.store
            // Granted, then reversed.
            let (granted, _) = try await RefundSubmissionTests.legalRequest(harness)
            store.clock.advance(by: 60)
            try await harness.settled(store.grantRefund(transactionId: granted, type: .refundFull))
            var record = try await harness.consumption(granted)
            #expect(record["outcome"]?.stringValue == "REFUND")
            let refund = record["outcomes"]?.arrayValue?.first?.objectValue
            #expect(refund?["revocationType"]?.stringValue == "REFUND_FULL")
            #expect(refund?["revocationPercentage"]?.integerValue == 100_000)
            store.clock.advance(by: 60)
            try await harness.settled(store.reverseRefund(transactionId: granted))
            record = try await harness.consumption(granted)
            #expect(record["outcome"]?.stringValue == "REFUND_REVERSED")
            #expect(record["outcomes"]?.arrayValue?.count == 2)
            // Declined.
            let (declined, _) = try await RefundSubmissionTests.legalRequest(harness)
            store.clock.advance(by: 60)
            try await harness.settled(store.declineRefund(transactionId: declined))
            #expect(try await harness.consumption(declined)["outcome"]?.stringValue == "REFUND_DECLINED")
            // Not sent: no consent.
            let silent = try await harness.buy("com.lumen.credits.100", token: UUID())
            try await harness.askRefund(silent, .legal)

            let stats = try await harness.request(.GET, "/v1/rules/stats").body.jsonObject
            let rows = stats["refundRules"]?.arrayValue?.compactMap(\.objectValue) ?? []
            let legal = try #require(rows.first { $0["ruleId"]?.stringValue == "legal-requests" })
            #expect(legal["requests"]?.integerValue == 2)
            #expect(legal["sent"]?.integerValue == 2)
            #expect(legal["granted"]?.integerValue == 1)
            #expect(legal["reversed"]?.integerValue == 1)
            #expect(legal["declined"]?.integerValue == 1)
            let veto = try #require(rows.first { $0["ruleId"]?.stringValue == "no-answer-without-consent" })
            #expect(veto["requests"]?.integerValue == 1)
            #expect(veto["notSentNoConsent"]?.integerValue == 1)
            #expect(veto["sent"]?.integerValue == 0)
        }
    }

    @Test(arguments: TestBackend.selected)
    func assumedConsentIsRecordedAndARefusalStillWins(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: ["VERDICT_ASSUME_CONSENT": "true"]) { harness in
            let assumed = try await harness.buy("com.lumen.credits.100", token: UUID())
            let sent = try await harness.askRefund(assumed, .legal)
            #expect(sent["state"]?.stringValue == "sent")
            #expect(sent["consentBasis"]?.stringValue == "assumed")
            #expect(sent[path: "record.consent.basis"]?.stringValue == "assumed")

            let token = UUID()
            try await harness.consent(token, false)
            let refused = try await harness.buy("com.lumen.credits.100", token: token)
            let record = try await harness.askRefund(refused, .legal)
            #expect(record["state"]?.stringValue == "not_sent")
            #expect(record["consentBasis"]?.stringValue == "refused")
            #expect(await harness.receivedBodies(refused).isEmpty)
        }
    }
}
