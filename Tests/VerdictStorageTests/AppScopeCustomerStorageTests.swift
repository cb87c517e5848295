import Foundation
import Testing
import VerdictTestSupport

@testable import VerdictStorage

/// Two apps in one database: customer attributes, the consent ledger, transaction facts,
/// consumption requests (and their attempts) and retention message states of one app are neither
/// read nor changed through the other, and the same natural key (appAccountToken,
/// originalTransactionId, transaction id, message identifier) gives each app its own row.
@Suite("Storage: customer data per app")
struct AppScopeCustomerStorageTests {
    static let token = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"

    @Test("the same appAccountToken holds one attribute set per app", arguments: TestBackend.selected)
    func attributes(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, _ in
            let inA = CustomerAttributesRecord(appAccountToken: Self.token, json: #"{"plan":"pro"}"#, updatedAt: 10)
            try await a.setCustomerAttributes(inA)
            #expect(try await b.customerAttributes(appAccountToken: Self.token) == nil)

            let inB = CustomerAttributesRecord(appAccountToken: Self.token, json: #"{"level":3}"#, updatedAt: 20)
            try await b.setCustomerAttributes(inB)
            #expect(try await a.customerAttributes(appAccountToken: Self.token) == inA, "B's replace leaves A's set alone")
            #expect(try await b.customerAttributes(appAccountToken: Self.token) == inB)
        }
    }

    @Test("a customer's consent in one app ignores the other app's entries",
          arguments: TestBackend.selected, [ConsentKey.appAccountToken(token), .originalTransactionId("2000000000000001")])
    func consent(_ backend: TestBackend, key: ConsentKey) async throws {
        try await TestDatabase.withApps(backend) { a, b, _ in
            let consentedInA = ConsentRecord(key: key, consented: true, at: 100, source: "app", termsVersion: "v1", recordedAt: 101)
            try await a.recordConsent(consentedInA)
            #expect(try await b.consents(keys: [key], limit: 10).isEmpty)

            // B's newer refusal is B's current answer only.
            let refusedInB = ConsentRecord(key: key, consented: false, at: 200, source: "settings", termsVersion: nil, recordedAt: 201)
            try await b.recordConsent(refusedInB)
            #expect(try await a.consents(keys: [key], limit: 10) == [consentedInA])
            #expect(try await a.consents(keys: [key], limit: 1).first?.consented == true)
            #expect(try await b.consents(keys: [key], limit: 10) == [refusedInB])
        }
    }

    @Test("the same transaction id has facts per app", arguments: TestBackend.selected)
    func transactionFacts(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, _ in
            let inA = TransactionFactsRecord(transactionId: "2000", deliveryStatus: "DELIVERED", consumptionPercentage: 40_000,
                                             sampleContentProvided: true, sessionsSincePurchase: 3, updatedAt: 10)
            try await a.setTransactionFacts(inA)
            #expect(try await b.transactionFacts(transactionId: "2000") == nil)

            let inB = TransactionFactsRecord(transactionId: "2000", deliveryStatus: nil, consumptionPercentage: nil,
                                             sampleContentProvided: false, sessionsSincePurchase: nil, updatedAt: 20)
            try await b.setTransactionFacts(inB)
            #expect(try await a.transactionFacts(transactionId: "2000") == inA, "B's replace leaves A's facts alone")
            #expect(try await b.transactionFacts(transactionId: "2000") == inB)
        }
    }

    @Test("consumption requests of one app are invisible to the other; each app has its own open request per purchase",
          arguments: TestBackend.selected)
    func consumptionRequests(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, _ in
            let submission = Fixture.job(kind: "send-consumption", dedupeKey: "send-consumption:2000")
            let inA = RefundStorageTests.request("r-a", uuid: "n-a")
            #expect(try await a.insertConsumptionRequest(inA, submission: submission) == .inserted(inA))
            #expect(try await b.consumptionRequest(id: "r-a") == nil)
            #expect(try await b.consumptionRequests(transactionId: "2000").isEmpty)
            #expect(try await b.recentConsumptionRequests(limit: 10).isEmpty)

            // The same purchase in B: a new open request of B's, not a repeat of A's.
            let inB = RefundStorageTests.request("r-b", uuid: "n-b")
            #expect(try await b.insertConsumptionRequest(inB, submission: submission) == .inserted(inB))
            #expect(try await a.queueStatistics(now: 0).queued == 2, "each app's submission is enqueued (the queue is process-wide)")
            let repeated = try await b.insertConsumptionRequest(RefundStorageTests.request("r-b2", uuid: "n-b2"), submission: nil)
            guard case .repeated(let answered) = repeated else { Issue.record("expected a repeat, got \(repeated)"); return }
            #expect(answered.id == "r-b")
            #expect(try await a.consumptionRequest(id: "r-a") == inA, "B's repeat is not added to A's request")
            #expect(try await a.consumptionRequests(transactionId: "2000").map(\.id) == ["r-a"])
            #expect(try await b.consumptionRequests(transactionId: "2000").map(\.id) == ["r-b"])
            #expect(try await a.recentConsumptionRequests(limit: 10).map(\.id) == ["r-a"])

            // Apple's outcome joins the request of the app it was received for.
            #expect(try await b.recordConsumptionOutcome(
                transactionId: "2000", outcome: "REFUND", detail: "{}", notificationUUID: "o-b", at: 90))
            #expect(try await a.consumptionRequest(id: "r-a")?.outcome == nil)
            #expect(try await b.consumptionRequest(id: "r-b")?.outcome == "REFUND")
            // A purchase only B asked about: A has no request to join.
            _ = try await b.insertConsumptionRequest(RefundStorageTests.request("r-b3", uuid: "n-b3", transactionId: "3000"),
                                                     submission: nil)
            #expect(try await a.recordConsumptionOutcome(
                transactionId: "3000", outcome: "REFUND", detail: "{}", notificationUUID: "o-a", at: 95) == false)
            #expect(try await b.consumptionRequest(id: "r-b3")?.outcome == nil)
        }
    }

    @Test("another app can neither move a request nor record or read its attempts", arguments: TestBackend.selected)
    func consumptionAttempts(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, _ in
            let request = RefundStorageTests.request("r-a", uuid: "n-a")
            _ = try await a.insertConsumptionRequest(request, submission: nil)
            let retry = ConsumptionAttemptRecord(attempt: 1, at: 10, httpStatus: 429, errorCode: 4_290_000,
                                                 errorMessage: "Rate limit exceeded.", result: .retry, retryAt: 50)
            #expect(try await a.updateConsumptionSubmission(id: "r-a", state: .pending, attempt: retry, lastError: "429", at: 10))

            // Through B: no mark, no state change, no attempt, nothing to read.
            let sent = ConsumptionAttemptRecord(attempt: 2, at: 60, httpStatus: 202, errorCode: nil, errorMessage: nil,
                                                result: .sent, retryAt: nil)
            #expect(try await b.markConsumptionAttemptInFlight(id: "r-a", attempt: 2, at: 55) == false)
            #expect(try await b.updateConsumptionSubmission(id: "r-a", state: .sent, attempt: sent, lastError: nil, at: 60) == false)
            #expect(try await b.consumptionAttempts(requestId: "r-a").isEmpty)
            #expect(try await a.consumptionAttempts(requestId: "r-a") == [retry])
            #expect(try await a.consumptionRequest(id: "r-a")?.state == .pending)

            // A mark set by A is resolved only by A.
            #expect(try await a.markConsumptionAttemptInFlight(id: "r-a", attempt: 2, at: 55))
            #expect(try await b.resolveInterruptedConsumptionAttempt(id: "r-a") == nil)
            let interrupted = try #require(try await a.resolveInterruptedConsumptionAttempt(id: "r-a"))
            #expect(interrupted.attempt == 2 && interrupted.errorMessage == ConsumptionAttemptRecord.outcomeUnknown)
            #expect(try await a.consumptionAttempts(requestId: "r-a") == [retry, interrupted])
        }
    }

    @Test("the same message identifier has one review state per app", arguments: TestBackend.selected)
    func retentionMessages(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, _ in
            let identifier = "5c1f0e6a-0000-4000-8000-000000000001"
            func state(_ review: String, at: Int64) -> RetentionMessageState {
                RetentionMessageState(messageIdentifier: identifier, messageId: "winback", locale: "en-US", state: review,
                                      checkedAt: at)
            }
            try await a.recordRetentionMessageStates([state("APPROVED", at: 10)])
            #expect(try await b.retentionMessageStates().isEmpty)

            try await b.recordRetentionMessageStates([state("PENDING", at: 20)])
            #expect(try await a.retentionMessageStates() == [state("APPROVED", at: 10)], "B's record leaves A's state alone")
            #expect(try await b.retentionMessageStates() == [state("PENDING", at: 20)])

            try await b.deleteRetentionMessageStates(messageIdentifiers: [identifier])
            #expect(try await b.retentionMessageStates().isEmpty)
            #expect(try await a.retentionMessageStates() == [state("APPROVED", at: 10)], "B's delete leaves A's state alone")
        }
    }
}
