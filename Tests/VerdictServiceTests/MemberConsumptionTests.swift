import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictService
import VerdictStorage
import VerdictTestSupport

/// Apple refuses consumption information about a group member's `ASSIGNED` transaction
/// (4000227): a `CONSUMPTION_REQUEST` about one is recorded as not applicable and nothing reaches
/// Apple; a submission queued for one anyway is refused by the job itself; Apple's 4000227 is a
/// permanent failure that says why.
@Suite struct MemberConsumptionTests {
    /// Consent is assumed and the request is LEGAL, so the shipped rules would send a full grant:
    /// only the guard keeps the answer from Apple. The member's chain is unknown to the simulated
    /// App Store, so its history sync cannot complete: decisions do not wait for it.
    static let settings = ["VERDICT_ASSUME_CONSENT": "true", "VERDICT_HISTORY_WAIT": "0"]

    /// A purchaser's subscription and a member's transaction of it, asked about for a LEGAL reason.
    static func memberRequest(_ harness: ServiceHarness, memberId: String) async throws -> ServiceHarness.Delivered {
        let (bought, _) = try await harness.subscribeFullPriceAnnual()
        let purchaser = try #require(bought.transaction)
        let member = ServiceHarness.memberTransaction(of: purchaser, id: memberId)
        return try await harness.deliverSigned(.consumptionRequest, transaction: member, reason: .legal)
    }

    @Test(arguments: TestBackend.selected)
    func aRequestAboutAMembersTransactionIsRecordedAsNotApplicableAndNothingIsSent(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: Self.settings) { harness in
            let memberId = "9100000000000001"
            let delivered = try await Self.memberRequest(harness, memberId: memberId)
            #expect(delivered.status == 200)
            #expect(delivered.view["state"]?.stringValue == "processed")
            #expect(delivered.handlerOutput("refunds")?.contains(#""state":"not_sent""#) == true)

            let record = try await harness.consumption(memberId)
            #expect(record["state"]?.stringValue == "not_sent")
            #expect(record["blockedBy"]?.stringValue == "assigned-transaction")
            #expect(record["ruleId"] == nil)
            #expect(record["consentBasis"]?.stringValue == "assumed")
            #expect(record["body"] == nil || record["body"] == .null)
            #expect(record.consumptionAttempts.isEmpty)
            #expect(record[path: "record.notSentReason"]?.stringValue?.contains("ASSIGNED") == true)
            // The rules' own decision is kept for the record (and replays): they would have granted it.
            #expect(record[path: "record.decision.rule.id"]?.stringValue == "legal-requests")

            // A purchaser's own transaction, asked about the same way, is answered: only the
            // member's is held back.
            let (bought, _) = try await harness.subscribeFullPriceAnnual()
            let sent = try await harness.askRefund(try #require(bought.transactionId), .legal)
            #expect(sent["state"]?.stringValue == "sent")

            // Apple received nothing about the member, and refused nothing either: no call was made.
            #expect(await harness.receivedBodies(memberId).isEmpty)
            #expect(await harness.store.rejectedConsumptionInformation().isEmpty)
            let row = try #require(try await harness.ruleStatistics("assigned-transaction", refunds: true))
            #expect(row["requests"]?.integerValue == 1)
            #expect(row["notSentOther"]?.integerValue == 1)
            #expect(row["sent"]?.integerValue == 0)
        }
    }

    /// A submission already queued for a member's transaction (by an older version, or a record
    /// corrected since) is moved to `not_sent` by the job without calling Apple.
    @Test(arguments: TestBackend.selected)
    func theSubmissionJobRefusesAMembersTransactionItself(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: Self.settings) { harness in
            let memberId = "9100000000000002"
            _ = try await Self.memberRequest(harness, memberId: memberId)
            let repository = harness.service.apps.first.repository
            let stored = try #require(try await repository.consumptionRequests(transactionId: memberId).first)
            let at = Date().appStoreMilliseconds
            var queued = stored
            queued.id = UUID().uuidString.lowercased()
            queued.notificationUUID = UUID().uuidString.lowercased()
            queued.state = .pending
            queued.blockedBy = nil
            queued.decidedAt = at
            queued.deadline = at + RefundDecider.answerWindowMilliseconds
            queued.body = #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"refundPreference":"GRANT_FULL"}"#
            let job = ConsumptionSubmissionJob.job(requestId: queued.id, transactionId: memberId, deadline: queued.deadline, at: at)
            guard case .inserted = try await repository.insertConsumptionRequest(queued, submission: job) else {
                Issue.record("the queued request was not stored as new")
                return
            }
            let record = try await Self.settled(harness, requestId: queued.id)
            #expect(record.state == .notSent)
            #expect(record.lastError?.contains("ASSIGNED") == true)
            #expect(try await repository.consumptionAttempts(requestId: queued.id).isEmpty)
            #expect(await harness.receivedBodies(memberId).isEmpty)
            #expect(await harness.store.rejectedConsumptionInformation().isEmpty)
            let metrics = String(decoding: try await harness.request(.GET, "/metrics").body, as: UTF8.self)
            #expect(metrics.contains(#"verdict_consumption_submissions_total{result="not_sent",app="com.example.verdict"} 1"#))
        }
    }

    /// Should Apple answer 4000227 about a purchase Verdict did not know to be a member's, the
    /// request fails permanently, says why, and is not retried.
    @Test(arguments: TestBackend.selected)
    func applesAssignedTransactionErrorIsPermanentAndSaysWhy(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            harness.simulator.faults.add(.error(
                status: 400, errorCode: 4_000_227, errorMessage: "Invalid request. An assigned transaction is not supported.",
                endpoint: .sendConsumptionInformation, count: nil))
            let (id, record) = try await RefundSubmissionTests.legalRequest(harness)
            #expect(record["state"]?.stringValue == "failed")
            let lastError = try #require(record["lastError"]?.stringValue)
            #expect(lastError.contains("ASSIGNED") && lastError.contains("4000227") && lastError.contains("not retried"))
            #expect(record.consumptionAttempts.map { $0["result"]?.stringValue } == ["failed"])
            #expect(record.consumptionAttempts.first?["errorCode"]?.integerValue == 4_000_227)
            // Nothing runs again: the job is finished.
            try await Task.sleep(for: .milliseconds(1_500))
            #expect(try await harness.consumption(id).consumptionAttempts.count == 1)
            #expect(await harness.receivedBodies(id).isEmpty)
        }
    }

    /// Polls the stored request until it has left `pending`.
    static func settled(_ harness: ServiceHarness, requestId: String) async throws -> ConsumptionRequestRecord {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let record = try #require(try await harness.service.apps.first.repository.consumptionRequest(id: requestId))
            if record.state != .pending { return record }
            guard ContinuousClock.now < deadline else { throw ServiceTestError("request \(requestId) still pending") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
