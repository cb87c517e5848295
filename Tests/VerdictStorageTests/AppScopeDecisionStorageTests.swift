import Testing
import VerdictTestSupport

@testable import VerdictStorage

/// Two apps in one database: offer decisions (lookups, pending offers, answered-late marks and
/// their follow-up jobs), caps and their locks, outcomes and revenue, daily statistics, decision
/// history pages and imports, and rule replays of one app are neither read, counted nor changed
/// through the other.
@Suite("Storage: decisions, statistics and replays per app")
struct AppScopeDecisionStorageTests {
    static let appA = TestDatabase.appA
    static let appB = TestDatabase.appB
    static let day = DayRange.milliseconds

    /// A decision granting `offer` (pending until day 7) to customer `o-1`, unit `unit-1`.
    static func decision(_ id: String, at decidedAt: Int64 = 0, offer: String = "promo", rule: String = "r",
                         currency: String? = nil) -> OfferDecisionRecord {
        OfferDecisionRecord(
            id: id, originalTransactionId: "o-1", notificationUUID: "n-\(id)", trigger: "AUTO_RENEW_DISABLED", bundleHash: "h",
            ruleId: rule, ruleLine: 1, offerId: offer, offerType: "PROMOTIONAL", productId: "p", heldOut: false,
            decidedAt: decidedAt, expiresAt: 7 * day, json: "{}", customerUnit: "unit-1", currency: currency)
    }

    static func request(_ id: String, at decidedAt: Int64 = 0) -> ConsumptionRequestRecord {
        ConsumptionRequestRecord(
            id: id, notificationUUID: "cr-\(id)", transactionId: "t-\(id)", originalTransactionId: "o-1", appAccountToken: nil,
            environment: "Production", reason: "OTHER", requestedAt: decidedAt, deadline: decidedAt + day, decidedAt: decidedAt,
            bundleHash: "h", ruleId: "credits-used", ruleLine: 4, blockedBy: nil, consentBasis: .recorded, state: .pending,
            body: "{}", json: "{}")
    }

    @Test("a decision is found, pending and marked answered late through its own app only", arguments: TestBackend.selected)
    func decisions(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, none in
            let webhook = NewJob(kind: "webhook", payload: "{}", dedupeKey: "webhook-o-1", runAt: 0, createdAt: 0)
            _ = try await a.insertOfferDecision(Self.decision("a-1"), followUp: webhook, caps: [])
            for repository in [b, none] {
                #expect(try await repository.offerDecision(id: "a-1") == nil)
                #expect(try await repository.offerDecisions(originalTransactionId: "o-1", limit: 10).isEmpty)
                #expect(try await repository.pendingOffer(originalTransactionId: "o-1", now: Self.day) == nil)
            }

            // The same customer and follow-up key in B: two decisions, two jobs, one per app.
            _ = try await b.insertOfferDecision(Self.decision("b-1"), followUp: webhook, caps: [])
            #expect(try await a.offerDecisions(originalTransactionId: "o-1", limit: 10).map(\.id) == ["a-1"])
            #expect(try await b.pendingOffer(originalTransactionId: "o-1", now: Self.day)?.id == "b-1")
            #expect(try await a.jobs(state: .queued, limit: 10).map(\.app).sorted() == [Self.appA, Self.appB])

            // B cannot mark A's decision; marking its own withdraws its own follow-up only.
            #expect(try await !b.markAnsweredLate(decisionId: "a-1", withdrawing: webhook.dedupeKey))
            #expect(try await b.markAnsweredLate(decisionId: "b-1", withdrawing: webhook.dedupeKey))
            #expect(try await a.pendingOffer(originalTransactionId: "o-1", now: Self.day)?.id == "a-1")
            #expect(try await b.pendingOffer(originalTransactionId: "o-1", now: Self.day) == nil)
            #expect(try await a.jobs(state: .queued, limit: 10).map(\.app) == [Self.appA])
        }
    }

    @Test("caps count the grants of their own app", arguments: TestBackend.selected,
          [OfferCap.Scope.customer("unit-1"), .offer("promo")])
    func caps(_ backend: TestBackend, scope: OfferCap.Scope) async throws {
        try await TestDatabase.withApps(backend) { a, b, _ in
            let cap = OfferCap(scope: scope, max: 1, since: 0)
            func insert(_ repository: any VerdictRepository, _ id: String) async throws -> OfferDecisionInsert {
                try await repository.insertOfferDecision(Self.decision(id), followUp: nil, caps: [cap])
            }
            let first = try await insert(a, "a-1")
            #expect(first == .stored(Self.decision("a-1")))
            #expect(try await a.grantedOffers(scope, since: 0) == 1)
            #expect(try await b.grantedOffers(scope, since: 0) == 0)

            // A's used-up cap leaves B's slot free; then each app's cap is used up.
            #expect(try await insert(b, "b-1") == .stored(Self.decision("b-1")))
            #expect(try await insert(a, "a-2") == .capped(cap))
            #expect(try await insert(b, "b-2") == .capped(cap))
            #expect(try await a.grantedOffers(scope, since: 0) == 1)
            #expect(try await b.grantedOffers(scope, since: 0) == 1)
        }
    }

    @Test("a cap's lock key is per app, stable, and never one app's for another")
    func lockKeys() {
        let cap = OfferCap(scope: .customer("unit-1"), max: 1, since: 0)
        // FNV-1a of "com.example.a", a zero byte, "verdict-cap:customer:unit-1": every process agrees.
        #expect(cap.lockKey(app: Self.appA) == 5_765_077_166_602_816_355)
        #expect(cap.lockKey(app: "") == 578_341_057_708_908_785)
        #expect(cap.lockKey(app: Self.appA) != cap.lockKey(app: Self.appB))
        #expect(cap.lockKey(app: Self.appA) != OfferCap(scope: .offer("unit-1"), max: 1, since: 0).lockKey(app: Self.appA))
    }

    @Test("PostgreSQL: one app's cap lock makes that app wait and not the other",
          arguments: TestBackend.selected.filter { $0 == .postgres })
    func capLocks(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, none in
            let sql = try #require(none as? SQLRepository)
            let cap = OfferCap(scope: .customer("unit-1"), max: 5, since: 0)
            // Another instance of A holds the cap's lock: B stores at once, A waits for the lock.
            let waiting = try await sql.driver.transaction(timeout: .seconds(60)) { db in
                _ = try await db.query("SELECT pg_advisory_xact_lock($1) AS locked", .integer(cap.lockKey(app: Self.appA)))
                #expect(try await b.insertOfferDecision(Self.decision("b-1"), followUp: nil, caps: [cap]) == .stored(Self.decision("b-1")))
                let waiting = Task { try await a.insertOfferDecision(Self.decision("a-1"), followUp: nil, caps: [cap]) }
                var waits = 0
                for _ in 0..<200 where waits == 0 {
                    waits = try await db.query("SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
                        .first?.int("n") ?? 0
                    if waits == 0 { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(waits == 1, "A's insert waits for the lock held for A")
                return waiting
            }
            #expect(try await waiting.value == .stored(Self.decision("a-1")), "stored once the lock is released")
        }
    }

    @Test("outcomes and revenue credit only the acting app's decisions", arguments: TestBackend.selected)
    func outcomesAndRevenue(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, none in
            for (repository, id) in [(a, "a-1"), (b, "b-1")] {
                _ = try await repository.insertOfferDecision(Self.decision(id, currency: "USD"), followUp: nil, caps: [])
            }
            let stay = CustomerActionEvent(originalTransactionId: "o-1", action: .reenabled, offerIdentifiers: ["promo"],
                                           notificationUUID: "back-b", actedAt: Self.day)
            #expect(try await b.recordCustomerAction(stay, attributionWindow: 30 * Self.day, at: Self.day) == 1)
            #expect(try await a.offerDecision(id: "a-1")?.outcome == nil)
            #expect(try await b.offerDecision(id: "b-1")?.outcome == "redeemed")

            // The same transaction id credits each app's decision once, on its own ledger rows.
            func purchase(_ amount: Int64) -> OfferRevenueEvent {
                .purchase(originalTransactionId: "o-1", transactionId: "t-1", purchasedAt: Self.day, amount: amount, currency: "USD")
            }
            #expect(try await a.recordOfferRevenue(purchase(9_990), window: 30 * Self.day, at: Self.day) == 1)
            #expect(try await b.offerDecision(id: "b-1")?.revenue == 0)
            #expect(try await b.recordOfferRevenue(.refund(transactionId: "t-1"), window: 30 * Self.day, at: Self.day) == 0)
            #expect(try await b.recordOfferRevenue(purchase(4_990), window: 30 * Self.day, at: Self.day) == 1)
            #expect(try await a.recordOfferRevenue(.refund(transactionId: "t-1"), window: 30 * Self.day, at: 2 * Self.day) == 1)
            #expect(try await a.offerDecision(id: "a-1")?.revenue == 0)
            #expect(try await b.offerDecision(id: "b-1")?.revenue == 4_990)

            let sql = try #require(none as? SQLRepository)
            let ledger = try await sql.statement { db in
                try await db.query("SELECT app, decision_id, kind FROM offer_revenue ORDER BY app, kind")
                    .map { "\(try $0.string("app")) \(try $0.string("decision_id")) \(try $0.string("kind"))" }
            }
            #expect(ledger == ["\(Self.appA) a-1 purchase", "\(Self.appA) a-1 refund", "\(Self.appB) b-1 purchase"])
        }
    }

    @Test("daily statistics sum one app's rows", arguments: TestBackend.selected)
    func dailyStatistics(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, none in
            // A: two decisions, one request, one notification; B: three of each, on the same day and keys.
            for (repository, count) in [(a, 2), (b, 3)] {
                let app = repository.app
                try await repository.importOfferDecisions((0..<count).map { Self.decision("\(app)-d\($0)", at: 5) })
                try await repository.importConsumptionRequests((0..<count).map { Self.request("\(app)-r\($0)", at: 5) })
                try await repository.importNotifications((0..<count).map { Fixture.notification("\(app)-n\($0)") })
            }
            for (repository, count) in [(a, 2), (b, 3), (none, 0)] {
                let offers = try await repository.offerRuleDays(DayRange())
                #expect(offers.reduce(0) { $0 + $1.statistics.decisions } == count)
                #expect(try await repository.offerRuleStatistics().reduce(0) { $0 + $1.decisions } == count)
                #expect(try await repository.refundRuleDays(DayRange()).reduce(0) { $0 + $1.statistics.requests } == count)
                #expect(try await repository.refundRuleStatistics().reduce(0) { $0 + $1.requests } == count)
                #expect(try await repository.notificationDays(DayRange()).reduce(0) { $0 + $1.notifications } == count)
            }
        }
    }

    @Test("history pages, counts and filtered lists read one app's decisions", arguments: TestBackend.selected)
    func history(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, _ in
            // Interleaved in time: A's pages must skip B's rows without losing their order.
            try await a.importOfferDecisions([10, 30, 50].map { Self.decision("a-\($0)", at: $0) })
            try await b.importOfferDecisions([20, 40].map { Self.decision("b-\($0)", at: $0) })
            try await a.importConsumptionRequests([Self.request("a-r", at: 15)])
            try await b.importConsumptionRequests([Self.request("b-r", at: 25)])

            var seen: [String] = []
            var cursor: DecisionCursor?
            repeat {
                let page = try await a.offerDecisions(decidedIn: DecisionPeriod(), after: cursor, limit: 2)
                seen += page.map(\.id)
                cursor = page.count == 2 ? page.last.map { DecisionCursor(decidedAt: $0.decidedAt, id: $0.id) } : nil
            } while cursor != nil
            #expect(seen == ["a-10", "a-30", "a-50"])
            #expect(try await b.consumptionRequests(decidedIn: DecisionPeriod(), after: nil, limit: 10).map(\.id) == ["b-r"])
            let counts = try await b.decisionCounts(decidedIn: DecisionPeriod())
            #expect(counts.offers == 2 && counts.refunds == 1)
            #expect(try await a.offerDecisions(matching: DecisionFilter(offerId: "promo"), limit: 10).map(\.id) == ["a-50", "a-30", "a-10"])
            #expect(try await b.consumptionRequests(matching: DecisionFilter(ruleId: "credits-used"), limit: 10).map(\.id) == ["b-r"])
        }
    }

    @Test("imports store rows with the app: the same transaction id imports once per app", arguments: TestBackend.selected)
    func imports(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, none in
            try await a.importTransactions([Fixture.transaction("t-1", signedDate: 10, product: "monthly")])
            #expect(try await b.transaction(id: "t-1") == nil)
            try await b.importTransactions([Fixture.transaction("t-1", signedDate: 20, product: "annual")])
            #expect(try await a.transaction(id: "t-1")?.productId == "monthly")
            #expect(try await b.transaction(id: "t-1")?.productId == "annual")
            #expect(try await none.transaction(id: "t-1") == nil)
        }
    }

    @Test("a replay is listed, run and cancelled through its own app only", arguments: TestBackend.selected)
    func replays(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, _ in
            let replay = RuleReplayRecord(id: "rp-1", state: .queued, candidateHash: "sha256:c", request: "{}", createdAt: 1)
            try await a.createReplay(replay, job: NewJob(kind: "rule-replay", payload: "{}", runAt: 1, createdAt: 1))
            #expect(try await a.jobs(state: .queued, limit: 10).map(\.app) == [Self.appA])

            #expect(try await b.replay(id: "rp-1") == nil)
            #expect(try await b.replays(limit: 10).isEmpty)
            #expect(try await !b.startReplay(id: "rp-1", total: 10, at: 2))
            #expect(try await a.startReplay(id: "rp-1", total: 10, at: 2))
            #expect(try await !b.updateReplayProgress(id: "rp-1", done: 9, at: 3))
            #expect(try await a.updateReplayProgress(id: "rp-1", done: 4, at: 3))
            #expect(try await !b.finishReplay(id: "rp-1", state: .failed, report: nil, error: "b", at: 4))
            #expect(try await b.cancelReplay(id: "rp-1", at: 4) == nil)

            let running = try #require(try await a.replay(id: "rp-1"))
            #expect(running.state == .running && running.progressDone == 4 && running.error == nil)
            #expect(try await a.replays(limit: 10).map(\.id) == ["rp-1"])
            #expect(try await a.cancelReplay(id: "rp-1", at: 5)?.state == .cancelled)
        }
    }
}
