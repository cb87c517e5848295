import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictService
import VerdictStorage
import VerdictTestSupport

/// Send Consumption Information as a durable job: Apple's 429 with Retry-After, 5xx and outages
/// retried with backoff, a permanent 4xx recorded with Apple's code, repeats answered once, the
/// 12-hour deadline, and no credentials (the submission waits).
@Suite struct RefundSubmissionTests {
    /// A consumable bought by a consenting customer, refund requested for a LEGAL reason (the
    /// shipped rules grant it in full); returns the transaction id.
    static func legalRequest(_ harness: ServiceHarness, settle: Bool = true) async throws -> (id: String, record: [String: JSONValue]) {
        let token = UUID()
        try await harness.consent(token)
        let id = try await harness.buy("com.lumen.credits.100", token: token)
        return (id, try await harness.askRefund(id, .legal, settle: settle))
    }

    static func attempts(_ record: [String: JSONValue]) -> [[String: JSONValue]] {
        record.consumptionAttempts
    }

    @Test(arguments: TestBackend.selected)
    func rateLimitedWaitsForRetryAfter(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            harness.simulator.faults.add(.rateLimited(retryAfterMilliseconds: 1_500, endpoint: .sendConsumptionInformation, count: 1))
            let (id, record) = try await Self.legalRequest(harness)
            #expect(record["state"]?.stringValue == "sent")
            let attempts = Self.attempts(record)
            #expect(attempts.map { $0["result"]?.stringValue } == ["retry", "sent"])
            #expect(attempts.first?["httpStatus"]?.integerValue == 429)
            #expect(attempts.first?["errorCode"]?.integerValue == 4_290_000)
            // The retry was scheduled at Apple's Retry-After, not by backoff, and honoured.
            let first = try #require(attempts.first?["at"]?.integerValue)
            let retryAt = try #require(attempts.first?["retryAt"]?.integerValue)
            #expect(retryAt - first >= 1_000)
            #expect(try #require(attempts.last?["at"]?.integerValue) >= retryAt)
            #expect(await harness.receivedBodies(id).count == 1)
        }
    }

    /// A process that stops during the call leaves its attempt marked in flight (Apple may have the
    /// body): the next run records it as outcome unknown, counts it, and notes that it may repeat it.
    @Test(arguments: TestBackend.selected)
    func anInterruptedCallIsRecordedAsOutcomeUnknownAndTheRetrySaysItMayRepeatIt(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            harness.simulator.faults.add(.rateLimited(retryAfterMilliseconds: 2_000, endpoint: .sendConsumptionInformation, count: 1))
            let (id, _) = try await Self.legalRequest(harness, settle: false)
            _ = try await harness.consumptionAttempts(id, count: 1)
            // As if the second call had started, reached Apple, and the process had died before the answer.
            let request = try #require(try await harness.service.apps.first.repository.consumptionRequests(transactionId: id).first)
            #expect(try await harness.service.apps.first.repository.markConsumptionAttemptInFlight(
                id: request.id, attempt: 2, at: Date().appStoreMilliseconds))
            let record = try await harness.settledConsumption(id)
            #expect(record["state"]?.stringValue == "sent")
            let attempts = Self.attempts(record)
            #expect(attempts.map { $0["result"]?.stringValue } == ["retry", "retry", "sent"])
            #expect(attempts.map { $0["attempt"]?.integerValue } == [1, 2, 3])
            #expect(attempts[1]["errorMessage"]?.stringValue == ConsumptionAttemptRecord.outcomeUnknown)
            #expect(attempts[1]["httpStatus"] == nil)
            #expect(attempts[2]["errorMessage"]?.stringValue == "may repeat attempt 2, whose outcome is unknown")
            let metrics = String(decoding: try await harness.request(.GET, "/metrics").body, as: UTF8.self)
            #expect(metrics.contains(#"result="outcome_unknown""#))
        }
    }

    @Test(arguments: TestBackend.selected)
    func serverErrorThenSuccess(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            harness.simulator.faults.add(.generalInternalRetryable(.sendConsumptionInformation, count: 1))
            let (id, record) = try await Self.legalRequest(harness)
            #expect(record["state"]?.stringValue == "sent")
            let attempts = Self.attempts(record)
            #expect(attempts.map { $0["result"]?.stringValue } == ["retry", "sent"])
            #expect(attempts.first?["httpStatus"]?.integerValue == 500)
            #expect(attempts.first?["errorCode"]?.integerValue == 5_000_001)
            #expect(await harness.receivedBodies(id).count == 1)
        }
    }

    @Test(arguments: TestBackend.selected)
    func outageLongerThanTheBackoff(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            // Three failures in a row (503, then dropped connections): backoff grows, nothing is lost.
            harness.simulator.faults.add(.serviceUnavailable(.sendConsumptionInformation, count: 1))
            harness.simulator.faults.add(.dropConnection(.sendConsumptionInformation, count: 2))
            let (id, record) = try await Self.legalRequest(harness)
            #expect(record["state"]?.stringValue == "sent")
            let attempts = Self.attempts(record)
            #expect(attempts.map { $0["result"]?.stringValue } == ["retry", "retry", "retry", "sent"])
            #expect(attempts.first?["httpStatus"]?.integerValue == 503)
            #expect(attempts[1]["httpStatus"] == nil)
            #expect(await harness.receivedBodies(id).count == 1)
        }
    }

    @Test(arguments: TestBackend.selected)
    func permanentClientErrorIsRecordedNotRetried(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            harness.simulator.faults.add(.error(
                status: 404, errorCode: 4_040_010, errorMessage: "Transaction id not found.", endpoint: .sendConsumptionInformation, count: 1))
            let (id, record) = try await Self.legalRequest(harness)
            #expect(record["state"]?.stringValue == "failed")
            let attempts = Self.attempts(record)
            #expect(attempts.map { $0["result"]?.stringValue } == ["failed"])
            #expect(attempts.first?["errorCode"]?.integerValue == 4_040_010)
            #expect(attempts.first?["errorMessage"]?.stringValue == "Transaction id not found.")
            #expect(record["lastError"]?.stringValue?.contains("4040010") == true)
            #expect(await harness.receivedBodies(id).isEmpty)
            let metrics = String(decoding: try await harness.request(.GET, "/metrics").body, as: UTF8.self)
            #expect(metrics.contains(#"verdict_consumption_submissions_total{result="failed",app="com.example.verdict"} 1"#))
        }
    }

    @Test(arguments: TestBackend.selected)
    func repeatedRequestsAreAnsweredOnce(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let token = UUID()
            try await harness.consent(token)
            let id = try await harness.buy("com.lumen.credits.100", token: token)
            let asked = try await harness.settled(harness.store.requestRefund(transactionId: id, reason: .legal))
            // The same notification delivered again (Apple's retry or a forwarder): a duplicate.
            let again = try await harness.deliver(asked.notification.signedPayload)
            #expect(again.body.jsonObject["status"]?.stringValue == "duplicate")
            _ = try await harness.settledConsumption(id)
            // Apple asks again about the same purchase: joins the answer already sent.
            harness.store.clock.advance(by: 60)
            let second = try await harness.settled(harness.store.requestRefund(transactionId: id, reason: .legal))
            let record = try await harness.settledConsumption(id)
            #expect(record["state"]?.stringValue == "sent")
            #expect(record["repeats"]?.arrayValue?.compactMap { $0.objectValue?["notificationUUID"]?.stringValue }
                == [second.notification.notificationUUID])
            #expect(record["earlier"]?.arrayValue?.isEmpty == true)
            #expect(await harness.receivedBodies(id).count == 1)
        }
    }

    @Test(arguments: TestBackend.selected)
    func requestDecidedAfterTheDeadlineIsMissed(_ backend: TestBackend) async throws {
        // Verdict lives 13 hours after Apple signed the request (it reached Verdict late).
        try await ServiceHarness.with(backend, serviceClock: SimulatorClock(offset: 13 * 3600)) { harness in
            let token = UUID()
            try await harness.consent(token)
            let id = try await harness.buy("com.lumen.credits.100", token: token)
            let record = try await harness.askRefund(id, .legal)
            #expect(record["state"]?.stringValue == "missed")
            #expect(record["deadline"]?.integerValue == (record["requestedAt"]?.integerValue).map { $0 + 43_200_000 })
            #expect(Self.attempts(record).isEmpty)
            #expect(await harness.receivedBodies(id).isEmpty)
            let metrics = String(decoding: try await harness.request(.GET, "/metrics").body, as: UTF8.self)
            #expect(metrics.contains(#"verdict_consumption_deadline_missed_total{app="com.example.verdict"} 1"#))
        }
    }

    /// Apple answers 503 to every try. The service's clock is frozen and moved by the test, so
    /// where each try falls relative to the deadline does not depend on how loaded the machine is.
    @Test(arguments: TestBackend.selected)
    func outageUntilTheDeadlineIsMissed(_ backend: TestBackend) async throws {
        try await Self.withRefundRequestedWhileAppleIsDown(backend) { harness, serviceClock, id, deadline in
            // Two minutes left: the first try fails and is retried in about a second (backoff 0.5–1 s).
            let first = try await harness.consumptionAttempts(id, count: 1)
            #expect(first.last?["result"]?.stringValue == "retry")
            let firstAt = first.last?["at"]?.integerValue ?? 0
            #expect((firstAt + 500...firstAt + 1_000).contains(first.last?["retryAt"]?.integerValue ?? 0))
            // Thirty seconds left: the second try is retried too (backoff 1–2 s lands before the deadline).
            serviceClock.freeze(at: deadline.addingTimeInterval(-30))
            #expect(try await harness.consumptionAttempts(id, count: 2).last?["result"]?.stringValue == "retry")
            // Half a second left: a retry (backoff 2–4 s) would land after the deadline, and the last
            // try just before it (60 s before) has passed: this try is `missed`.
            serviceClock.freeze(at: deadline.addingTimeInterval(-0.5))
            let record = try await harness.settledConsumption(id)
            #expect(record["state"]?.stringValue == "missed")
            let attempts = Self.attempts(record)
            #expect(attempts.compactMap { $0["result"]?.stringValue } == ["retry", "retry", "missed"])
            #expect(attempts.allSatisfy { $0["httpStatus"]?.integerValue == 503 })
            #expect(attempts.last?["retryAt"] == nil || attempts.last?["retryAt"] == .null)
            #expect(await harness.receivedBodies(id).isEmpty)
        }
    }

    /// A retry whose time comes only after the deadline (the service was down, or busy) is not sent.
    @Test(arguments: TestBackend.selected)
    func aRetryThatWakesAfterTheDeadlineIsMissedUnsent(_ backend: TestBackend) async throws {
        try await Self.withRefundRequestedWhileAppleIsDown(backend) { harness, serviceClock, id, deadline in
            _ = try await harness.consumptionAttempts(id, count: 1)
            serviceClock.freeze(at: deadline.addingTimeInterval(1))
            let record = try await harness.settledConsumption(id)
            #expect(record["state"]?.stringValue == "missed")
            #expect(Self.attempts(record).compactMap { $0["result"]?.stringValue } == ["retry"])
            #expect(await harness.receivedBodies(id).isEmpty)
        }
    }

    /// Runs `body` with Apple answering 503 to every Send Consumption Information call, and a
    /// consenting customer's consumable with Apple's refund request about it, signed now and
    /// processed when two minutes of the 12 hours are left on the service's frozen clock. `body`
    /// gets the service's clock, the transaction and the request's deadline (signedDate + 12 h).
    static func withRefundRequestedWhileAppleIsDown(
        _ backend: TestBackend, _ body: (ServiceHarness, SimulatorClock, String, Date) async throws -> Void
    ) async throws {
        let serviceClock = SimulatorClock(frozenAt: Date())
        try await ServiceHarness.with(backend, serviceClock: serviceClock) { harness in
            harness.simulator.faults.add(.serviceUnavailable(.sendConsumptionInformation, count: nil))
            let token = UUID()
            try await harness.consent(token)
            let id = try await harness.buy("com.lumen.credits.100", token: token)
            let signed = Date(appStoreMilliseconds: Date().appStoreMilliseconds)
            harness.store.clock.freeze(at: signed)
            let deadline = signed.addingTimeInterval(12 * 3600)
            serviceClock.freeze(at: deadline.addingTimeInterval(-120))
            let record = try await harness.askRefund(id, .legal, settle: false)
            #expect(record["deadline"]?.integerValue == deadline.appStoreMilliseconds)
            try await body(harness, serviceClock, id, deadline)
        }
    }

    @Test(arguments: TestBackend.selected)
    func withoutCredentialsTheSubmissionWaits(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, credentials: false) { harness in
            let (id, record) = try await Self.legalRequest(harness, settle: false)
            #expect(record["state"]?.stringValue == "pending")
            #expect(record["body"]?.objectValue?["refundPreference"]?.stringValue == "GRANT_FULL")
            let ready = try await harness.request(.GET, "/readyz").body.jsonObject
            #expect(String(describing: ready).contains("VERDICT_APPSTORE_KEY_ID"))
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await harness.consumption(id)["state"]?.stringValue == "pending")
            let jobs = try await harness.request(.GET, "/v1/jobs?state=queued").body.jsonObject
            #expect(String(describing: jobs).contains("send-consumption"))
        }
    }
}
