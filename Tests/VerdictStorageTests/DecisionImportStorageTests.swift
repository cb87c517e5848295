import Testing
import VerdictTestSupport

@testable import VerdictStorage

/// The bulk import (`verdict bench replay` seeds with it): thousands of rows in one call, over
/// several multi-row statements, read back exactly and in order by the decision history.
@Suite("Storage: bulk import of stored decisions")
struct DecisionImportStorageTests {
    static func offer(_ index: Int) -> OfferDecisionRecord {
        let granted = index % 3 != 0
        return OfferDecisionRecord(
            id: String(format: "d-%06d", index), originalTransactionId: "o-\(index % 97)", notificationUUID: "n-\(index)",
            trigger: "AUTO_RENEW_DISABLED", bundleHash: "sha256:x", ruleId: granted ? "rule-\(index % 5)" : nil,
            ruleLine: granted ? 10 + index % 5 : nil, offerId: granted ? "offer-\(index % 4)" : nil,
            offerType: granted ? "PROMOTIONAL" : nil, productId: "p", heldOut: index % 20 == 0,
            // Two decisions per instant: the id orders them.
            decidedAt: 1_000 + Int64(index / 2), expiresAt: granted ? 5_000 + Int64(index) : nil,
            json: #"{"decision":{"n":\#(index)},"facts":{"é":"ü"}}"#, outcome: index % 7 == 0 ? "redeemed" : nil,
            outcomeAt: index % 7 == 0 ? 9_000 : nil, customerUnit: "o-\(index % 97)")
    }

    static func request(_ index: Int) -> ConsumptionRequestRecord {
        ConsumptionRequestRecord(
            id: String(format: "r-%06d", index), notificationUUID: "cr-\(index)", transactionId: "t-\(index)",
            originalTransactionId: "o-\(index % 13)", appAccountToken: nil, environment: "Production", reason: "OTHER",
            requestedAt: 2_000 + Int64(index), deadline: 2_000 + Int64(index) + 43_200_000, decidedAt: 2_001 + Int64(index),
            bundleHash: "sha256:x", ruleId: index % 2 == 0 ? "credits-all-used" : nil, ruleLine: index % 2 == 0 ? 40 : nil,
            blockedBy: index % 2 == 0 ? nil : "no-answer-without-consent", consentBasis: index % 2 == 0 ? .assumed : .none,
            state: index % 2 == 0 ? .sent : .notSent, body: index % 2 == 0 ? #"{"customerConsented":true}"# : nil,
            json: #"{"decision":{"n":\#(index)}}"#, sentAt: index % 2 == 0 ? 2_100 + Int64(index) : nil,
            outcome: index % 3 == 0 ? "REFUND" : nil, outcomeAt: index % 3 == 0 ? 3_000 : nil)
    }

    /// Every stored offer decision of the history, page by page.
    static func offers(_ repository: any VerdictRepository, pageSize: Int) async throws -> [OfferDecisionRecord] {
        var all: [OfferDecisionRecord] = []
        var cursor: DecisionCursor?
        while true {
            let page = try await repository.offerDecisions(decidedIn: DecisionPeriod(), after: cursor, limit: pageSize)
            all += page
            guard let last = page.last, page.count == pageSize else { return all }
            cursor = DecisionCursor(decidedAt: last.decidedAt, id: last.id)
        }
    }

    @Test("offer decisions: thousands in one call, read back in (decidedAt, id) order; a second import skips them",
          arguments: TestBackend.selected)
    func offerDecisions(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            // More rows than one statement binds (30,000 values / 18 columns = 1,666 rows).
            let records = (0..<4_000).map(Self.offer)
            try await repository.importOfferDecisions(records.reversed())
            try await repository.importOfferDecisions([])
            #expect(try await Self.offers(repository, pageSize: 700) == records)
            #expect(try await repository.decisionCounts(decidedIn: DecisionPeriod()).offers == 4_000)

            // Ids already stored are skipped, new ones added.
            try await repository.importOfferDecisions(Array(records[3_990...]) + [Self.offer(4_000)])
            #expect(try await repository.decisionCounts(decidedIn: DecisionPeriod()).offers == 4_001)
            // Stored decisions are ordinary ones: the service's reads see them.
            #expect(try await repository.offerDecision(id: "d-000007") == records[7])
            #expect(try await repository.grantedOffers(.offer("offer-1"), since: 0) == records.filter {
                $0.offerId == "offer-1" && !$0.heldOut
            }.count)
        }
    }

    @Test("consumption requests: read back in (decidedAt, id) order, with every column", arguments: TestBackend.selected)
    func consumptionRequests(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            // 30,000 values / 24 columns = 1,250 rows per statement.
            let records = (0..<2_600).map(Self.request)
            try await repository.importConsumptionRequests(records)
            var read: [ConsumptionRequestRecord] = []
            var cursor: DecisionCursor?
            while true {
                let page = try await repository.consumptionRequests(decidedIn: DecisionPeriod(), after: cursor, limit: 1_000)
                read += page
                guard let last = page.last else { break }
                cursor = DecisionCursor(decidedAt: last.decidedAt, id: last.id)
            }
            #expect(read == records)
            #expect(try await repository.decisionCounts(decidedIn: DecisionPeriod(since: 2_001, until: 2_101)).refunds == 100)
            #expect(try await repository.consumptionRequests(transactionId: "t-42") == [records[42]])
        }
    }
}
