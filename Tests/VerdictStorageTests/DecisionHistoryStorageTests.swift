import Testing
import VerdictTestSupport

@testable import VerdictStorage

/// What replays and the console read: decisions a page at a time in `(decidedAt, id)` order, counts
/// per period, filtered lists newest first, and console sessions that expire.
@Suite("Storage: decision history and console sessions")
struct DecisionHistoryStorageTests {
    static func decision(_ id: String, at decidedAt: Int64, rule: String = "r", offer: String? = "promo",
                         outcome: String? = nil) -> OfferDecisionRecord {
        OfferDecisionRecord(
            id: id, originalTransactionId: "o-\(id)", notificationUUID: "n-\(id)", trigger: "AUTO_RENEW_DISABLED",
            bundleHash: "h", ruleId: rule, ruleLine: 1, offerId: offer, offerType: offer.map { _ in "PROMOTIONAL" },
            productId: "p", heldOut: false, decidedAt: decidedAt, expiresAt: nil, json: "{}", outcome: outcome)
    }

    @Test("pages follow (decidedAt, id) across equal times and stay inside the period", arguments: TestBackend.selected)
    func pagesInOrder(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            for (id, at) in [("c", 20), ("a", 10), ("b", 10), ("d", 30), ("e", 40)] as [(String, Int64)] {
                _ = try await repository.insertOfferDecision(Self.decision(id, at: at), followUp: nil, caps: [])
            }
            let period = DecisionPeriod(since: 10, until: 40)
            var seen: [String] = []
            var cursor: DecisionCursor?
            while true {
                let page = try await repository.offerDecisions(decidedIn: period, after: cursor, limit: 2)
                seen += page.map(\.id)
                guard let last = page.last, page.count == 2 else { break }
                cursor = DecisionCursor(decidedAt: last.decidedAt, id: last.id)
            }
            #expect(seen == ["a", "b", "c", "d"])
            let counts = try await repository.decisionCounts(decidedIn: period)
            #expect(counts.offers == 4 && counts.refunds == 0)
            #expect(try await repository.consumptionRequests(decidedIn: period, after: nil, limit: 10).isEmpty)
        }
    }

    @Test("filtered lists are newest first and match every criterion given", arguments: TestBackend.selected)
    func filteredLists(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            _ = try await repository.insertOfferDecision(Self.decision("a", at: 10, rule: "r1", outcome: "redeemed"), followUp: nil, caps: [])
            _ = try await repository.insertOfferDecision(Self.decision("b", at: 20, rule: "r1", offer: "other"), followUp: nil, caps: [])
            _ = try await repository.insertOfferDecision(Self.decision("c", at: 30, rule: "r2"), followUp: nil, caps: [])
            func ids(_ filter: DecisionFilter) async throws -> [String] {
                try await repository.offerDecisions(matching: filter, limit: 10).map(\.id)
            }
            #expect(try await ids(DecisionFilter()) == ["c", "b", "a"])
            #expect(try await ids(DecisionFilter(ruleId: "r1")) == ["b", "a"])
            #expect(try await ids(DecisionFilter(ruleId: "r1", offerId: "promo")) == ["a"])
            #expect(try await ids(DecisionFilter(outcome: "redeemed")) == ["a"])
            #expect(try await ids(DecisionFilter(period: DecisionPeriod(since: 15, until: 30))) == ["b"])
            #expect(try await repository.consumptionRequests(matching: DecisionFilter(ruleId: "r1"), limit: 10).isEmpty)
        }
    }

    @Test("a console session is found by its digest until it expires, and ends when deleted", arguments: TestBackend.selected)
    func consoleSessions(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            let session = ConsoleSessionRecord(idDigest: "d1", role: "viewer", csrfToken: "t", createdAt: 100, expiresAt: 200)
            try await repository.createConsoleSession(session)
            #expect(try await repository.consoleSession(idDigest: "d1", now: 199) == session)
            #expect(try await repository.consoleSession(idDigest: "d1", now: 200) == nil)
            #expect(try await repository.consoleSession(idDigest: "other", now: 150) == nil)
            // Opening a session later sweeps the expired ones.
            try await repository.createConsoleSession(ConsoleSessionRecord(idDigest: "d2", role: "operator", csrfToken: "u", createdAt: 300, expiresAt: 400))
            #expect(try await repository.deleteConsoleSession(idDigest: "d1") == false)
            #expect(try await repository.deleteConsoleSession(idDigest: "d2") == true)
            #expect(try await repository.consoleSession(idDigest: "d2", now: 350) == nil)
        }
    }
}
