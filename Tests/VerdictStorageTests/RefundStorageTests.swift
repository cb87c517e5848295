import Foundation
import Testing
import VerdictTestSupport

@testable import VerdictStorage

@Suite("Storage: consent ledger, transaction facts, consumption requests")
struct RefundStorageTests {
    static let token = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"

    static func request(_ id: String, uuid: String, transactionId: String = "2000", state: ConsumptionRequestRecord.State = .pending,
                        rule: String? = "legal", requestedAt: Int64 = 1_000) -> ConsumptionRequestRecord {
        ConsumptionRequestRecord(
            id: id, notificationUUID: uuid, transactionId: transactionId, originalTransactionId: transactionId,
            appAccountToken: token, environment: "Sandbox", reason: "LEGAL", requestedAt: requestedAt,
            deadline: requestedAt + 43_200_000, decidedAt: requestedAt + 10, bundleHash: "sha256:x", ruleId: rule, ruleLine: 7,
            blockedBy: nil, consentBasis: .recorded, state: state,
            body: state == .pending ? #"{"customerConsented":true}"# : nil, json: "{}")
    }

    @Test("the consent ledger keeps history; the newest answer comes first", arguments: TestBackend.selected)
    func consentLedger(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ async throws in
            let key = ConsentKey.appAccountToken(Self.token)
            #expect(try await repository.consents(keys: [key], limit: 10).isEmpty)
            let given = ConsentRecord(key: key, consented: true, at: 100, source: "app", termsVersion: "v1", recordedAt: 101)
            let withdrawn = ConsentRecord(key: key, consented: false, at: 300, source: "settings", termsVersion: nil, recordedAt: 301)
            // Recorded out of order: the ledger orders by when the customer answered.
            try await repository.recordConsent(withdrawn)
            try await repository.recordConsent(given)
            #expect(try await repository.consents(keys: [key], limit: 10) == [withdrawn, given])
            #expect(try await repository.consents(keys: [key], limit: 1) == [withdrawn])
            #expect(try await repository.consents(keys: [.appAccountToken("someone-else")], limit: 10).isEmpty)
            #expect(try await repository.consents(keys: [], limit: 10).isEmpty)
        }
    }

    @Test("consent recorded for an originalTransactionId, read together with a token's", arguments: TestBackend.selected)
    func consentByOriginalTransactionId(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ async throws in
            let chain = ConsentKey.originalTransactionId("2000000000000001")
            let token = ConsentKey.appAccountToken(Self.token)
            let byChain = ConsentRecord(key: chain, consented: true, at: 500, source: "support", termsVersion: nil, recordedAt: 501)
            let byToken = ConsentRecord(key: token, consented: false, at: 400, source: "app", termsVersion: nil, recordedAt: 401)
            try await repository.recordConsent(byToken)
            try await repository.recordConsent(byChain)
            #expect(try await repository.consents(keys: [chain], limit: 10) == [byChain])
            #expect(try await repository.consents(keys: [token], limit: 10) == [byToken])
            // Together the newest answer wins, whichever key it was recorded under.
            #expect(try await repository.consents(keys: [chain, token], limit: 10) == [byChain, byToken])
            #expect(try await repository.consents(keys: [.originalTransactionId("other")], limit: 10).isEmpty)
        }
    }

    @Test("transaction facts are replaced as a whole", arguments: TestBackend.selected)
    func transactionFacts(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ async throws in
            let first = TransactionFactsRecord(transactionId: "2000", deliveryStatus: "DELIVERED", consumptionPercentage: 40_000,
                                               sampleContentProvided: true, sessionsSincePurchase: 3, updatedAt: 10)
            try await repository.setTransactionFacts(first)
            #expect(try await repository.transactionFacts(transactionId: "2000") == first)
            let second = TransactionFactsRecord(transactionId: "2000", deliveryStatus: nil, consumptionPercentage: nil,
                                                sampleContentProvided: false, sessionsSincePurchase: nil, updatedAt: 20)
            try await repository.setTransactionFacts(second)
            #expect(try await repository.transactionFacts(transactionId: "2000") == second)
            #expect(try await repository.transactionFacts(transactionId: "2001") == nil)
        }
    }

    @Test("one record per notification; a repeat for a pending purchase joins it; the submission is enqueued once",
          arguments: TestBackend.selected)
    func insertAndRepeat(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ async throws in
            let job = NewJob(kind: "send-consumption", payload: "{}", dedupeKey: "send-consumption:2000", runAt: 0, deadline: 5, createdAt: 0)
            let first = Self.request("r1", uuid: "n1")
            #expect(try await repository.insertConsumptionRequest(first, submission: job) == .inserted(first))
            // The same notification again (a re-run job): the stored record, nothing new.
            let rerun = Self.request("r1-again", uuid: "n1")
            #expect(try await repository.insertConsumptionRequest(rerun, submission: job) == .alreadyDecided(first))
            // Apple asks again about the same purchase: joins the pending answer.
            let repeated = try await repository.insertConsumptionRequest(Self.request("r2", uuid: "n2", requestedAt: 2_000), submission: job)
            guard case .repeated(let answered) = repeated else { Issue.record("expected a repeat, got \(repeated)"); return }
            #expect(answered.id == "r1")
            #expect(answered.repeats.contains(#""notificationUUID":"n2""#))
            #expect(try await repository.consumptionRequests(transactionId: "2000").map(\.id) == ["r1"])
            #expect(try await repository.queueStatistics(now: 0).queued == 1)
        }
    }

    @Test("submission attempts move a pending request once; outcomes join the newest request once", arguments: TestBackend.selected)
    func attemptsAndOutcomes(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ async throws in
            _ = try await repository.insertConsumptionRequest(Self.request("r1", uuid: "n1"), submission: nil)
            let retry = ConsumptionAttemptRecord(attempt: 1, at: 10, httpStatus: 429, errorCode: 4_290_000,
                                                 errorMessage: "Rate limit exceeded.", result: .retry, retryAt: 50)
            #expect(try await repository.updateConsumptionSubmission(id: "r1", state: .pending, attempt: retry, lastError: "429", at: 10))
            let sent = ConsumptionAttemptRecord(attempt: 2, at: 60, httpStatus: 202, errorCode: nil, errorMessage: nil, result: .sent, retryAt: nil)
            #expect(try await repository.updateConsumptionSubmission(id: "r1", state: .sent, attempt: sent, lastError: nil, at: 60))
            // No longer pending: a late duplicate attempt changes nothing.
            #expect(try await repository.updateConsumptionSubmission(id: "r1", state: .failed, attempt: sent, lastError: "x", at: 70) == false)
            #expect(try await repository.consumptionAttempts(requestId: "r1") == [retry, sent])
            let record = try #require(try await repository.consumptionRequest(id: "r1"))
            #expect(record.state == .sent && record.sentAt == 60 && record.lastError == nil)

            #expect(try await repository.recordConsumptionOutcome(
                transactionId: "2000", outcome: "REFUND", detail: #"{"revocationType":"REFUND_FULL"}"#, notificationUUID: "o1", at: 90))
            #expect(try await repository.recordConsumptionOutcome(
                transactionId: "2000", outcome: "REFUND", detail: "{}", notificationUUID: "o1", at: 90) == false)
            #expect(try await repository.recordConsumptionOutcome(
                transactionId: "9999", outcome: "REFUND", detail: "{}", notificationUUID: "o2", at: 90) == false)
            let joined = try #require(try await repository.consumptionRequest(id: "r1"))
            #expect(joined.outcome == "REFUND" && joined.outcomeAt == 90)
            #expect(joined.outcomes.contains(#""revocationType":"REFUND_FULL""#))
        }
    }

    @Test("refund rule statistics count requests, submissions and outcomes per rule", arguments: TestBackend.selected)
    func statistics(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ async throws in
            _ = try await repository.insertConsumptionRequest(Self.request("r1", uuid: "n1", transactionId: "1"), submission: nil)
            try await repository.updateConsumptionSubmission(id: "r1", state: .sent, attempt: nil, lastError: nil, at: 5)
            _ = try await repository.recordConsumptionOutcome(transactionId: "1", outcome: "REFUND", detail: "{}", notificationUUID: "o1", at: 6)
            _ = try await repository.recordConsumptionOutcome(transactionId: "1", outcome: "REFUND_REVERSED", detail: "{}", notificationUUID: "o2", at: 7)
            _ = try await repository.insertConsumptionRequest(Self.request("r2", uuid: "n2", transactionId: "2"), submission: nil)
            try await repository.updateConsumptionSubmission(id: "r2", state: .sent, attempt: nil, lastError: nil, at: 5)
            _ = try await repository.recordConsumptionOutcome(transactionId: "2", outcome: "REFUND_DECLINED", detail: "{}", notificationUUID: "o3", at: 6)
            var vetoed = Self.request("r3", uuid: "n3", transactionId: "3", state: .notSent, rule: nil)
            vetoed.blockedBy = "no-answer-without-consent"
            vetoed.consentBasis = .none
            _ = try await repository.insertConsumptionRequest(vetoed, submission: nil)
            _ = try await repository.insertConsumptionRequest(Self.request("r4", uuid: "n4", transactionId: "4", state: .missed, rule: nil), submission: nil)
            let stats = try await repository.refundRuleStatistics()
            #expect(stats == [
                RefundRuleStatistics(ruleId: "default", requests: 1, sent: 0, notSentNoConsent: 0, notSentOther: 0, failed: 0,
                                     missed: 1, granted: 0, declined: 0, reversed: 0),
                RefundRuleStatistics(ruleId: "legal", requests: 2, sent: 2, notSentNoConsent: 0, notSentOther: 0, failed: 0,
                                     missed: 0, granted: 1, declined: 1, reversed: 1),
                RefundRuleStatistics(ruleId: "no-answer-without-consent", requests: 1, sent: 0, notSentNoConsent: 1, notSentOther: 0,
                                     failed: 0, missed: 0, granted: 0, declined: 0, reversed: 0),
            ])
        }
    }
}

/// A consumption submission marked in flight before Apple is called: an outcome clears the mark;
/// a mark left by a stopped process becomes an "outcome unknown" attempt, once.
@Suite("Storage: consumption submissions in flight")
struct ConsumptionInFlightStorageTests {
    @Test("a mark left in flight is resolved once as outcome unknown; an outcome clears it", arguments: TestBackend.selected)
    func inFlightMarks(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            let request = DecisionImportStorageTests.request(1)
            var pending = request
            pending.state = .pending
            try await repository.insertConsumptionRequest(pending, submission: nil)
            #expect(try await repository.resolveInterruptedConsumptionAttempt(id: request.id) == nil)

            #expect(try await repository.markConsumptionAttemptInFlight(id: request.id, attempt: 1, at: 5_000))
            let interrupted = try #require(try await repository.resolveInterruptedConsumptionAttempt(id: request.id))
            #expect(interrupted == ConsumptionAttemptRecord(
                attempt: 1, at: 5_000, httpStatus: nil, errorCode: nil, errorMessage: ConsumptionAttemptRecord.outcomeUnknown,
                result: .retry, retryAt: nil))
            #expect(try await repository.resolveInterruptedConsumptionAttempt(id: request.id) == nil, "resolved once")
            #expect(try await repository.consumptionAttempts(requestId: request.id) == [interrupted])

            // A recorded outcome clears the mark: nothing is left to resolve.
            #expect(try await repository.markConsumptionAttemptInFlight(id: request.id, attempt: 2, at: 6_000))
            let sent = ConsumptionAttemptRecord(
                attempt: 2, at: 6_000, httpStatus: 202, errorCode: nil, errorMessage: nil, result: .sent, retryAt: nil)
            #expect(try await repository.updateConsumptionSubmission(id: request.id, state: .sent, attempt: sent, lastError: nil, at: 6_100))
            #expect(try await repository.resolveInterruptedConsumptionAttempt(id: request.id) == nil)
            // A request no longer pending is not marked.
            #expect(try await repository.markConsumptionAttemptInFlight(id: request.id, attempt: 3, at: 7_000) == false)
        }
    }
}
