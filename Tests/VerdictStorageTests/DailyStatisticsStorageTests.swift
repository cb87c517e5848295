import Testing
import VerdictTestSupport

@testable import VerdictStorage

/// The daily rollups of migrations 12, 15 and 18 stay equal to the rows they sum through every write path
/// (inserts, bulk imports, outcomes, revenue, submission states, Apple's refund outcomes), and
/// the revenue ledger credits each purchase once, to the right decisions.
@Suite("Storage: statistics by day and net revenue per decision")
struct DailyStatisticsStorageTests {
    static let day = DayRange.milliseconds
    static let window: Int64 = 30 * 86_400_000

    /// A small deterministic generator (SplitMix64).
    struct Mix {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static func decision(_ index: Int, _ mix: inout Mix) -> OfferDecisionRecord {
        let rule = ["", "lapsed-annual", "price-sensitive", "veteran"][mix.next(4)]
        let heldOut = rule != "" && mix.next(5) == 0
        let offer = rule == "" || mix.next(6) == 0 ? nil : "offer-\(mix.next(2))"
        return OfferDecisionRecord(
            id: "d-\(index)", originalTransactionId: "o-\(mix.next(12))", notificationUUID: "n-\(index)",
            trigger: index % 3 == 0 ? "REALTIME_REQUEST" : "EXPIRED", bundleHash: "h", ruleId: rule.isEmpty ? nil : rule, ruleLine: rule.isEmpty ? nil : 3,
            offerId: offer, offerType: offer.map { _ in "PROMOTIONAL" }, productId: "p", heldOut: heldOut && offer != nil,
            decidedAt: Int64(mix.next(5)) * day + Int64(mix.next(86_400_000)), expiresAt: offer.map { _ in 6 * day },
            json: "{}", currency: ["USD", "EUR", nil][mix.next(3)])
    }

    static func request(_ index: Int, _ mix: inout Mix) -> ConsumptionRequestRecord {
        ConsumptionRequestRecord(
            id: "r-\(index)", notificationUUID: "cr-\(index)", transactionId: "t-\(index)", originalTransactionId: "o-\(index)",
            appAccountToken: nil, environment: "Production", reason: "OTHER", requestedAt: Int64(mix.next(4)) * day,
            deadline: 10 * day, decidedAt: Int64(mix.next(4)) * day + 5, bundleHash: "h",
            ruleId: mix.next(2) == 0 ? "credits-used" : nil, ruleLine: 4, blockedBy: mix.next(3) == 0 ? "no-consent" : nil,
            consentBasis: [.recorded, .assumed, .refused, .none][mix.next(4)], state: .pending, body: "{}", json: "{}")
    }

    /// The offer rollup recomputed from the stored decisions, as the migration's backfill would.
    static func expectedOfferDays(_ decisions: [OfferDecisionRecord]) -> [OfferRuleDay] {
        var days: [String: OfferRuleDay] = [:]
        for decision in decisions {
            let key = "\(DayRange.day(of: decision.decidedAt))|\(decision.ruleId ?? "")|\(decision.currency ?? "")"
            var row = days[key] ?? OfferRuleDay(
                day: DayRange.day(of: decision.decidedAt), currency: decision.currency,
                statistics: OfferRuleStatistics(ruleId: decision.ruleId ?? "", decisions: 0, offersMade: 0, heldOut: 0,
                                                redeemed: 0, convertedTreatment: 0, convertedHoldout: 0))
            let treatment = decision.offerId != nil && !decision.heldOut
            row.statistics.decisions += 1
            row.statistics.offersMade += treatment ? 1 : 0
            row.statistics.heldOut += decision.heldOut ? 1 : 0
            row.statistics.redeemed += decision.outcome == "redeemed" ? 1 : 0
            row.statistics.convertedTreatment += decision.outcome != nil && treatment ? 1 : 0
            row.statistics.convertedHoldout += decision.outcome != nil && decision.heldOut ? 1 : 0
            row.statistics.appleOffer += decision.action == .appleOffer ? 1 : 0
            row.statistics.switched += decision.action == .switched ? 1 : 0
            row.statistics.renewed += decision.action == .renewed ? 1 : 0
            row.statistics.cancelled += decision.action == .cancelled ? 1 : 0
            row.statistics.addedSeats += decision.action == .addedSeats ? 1 : 0
            row.statistics.seatsRefunded += decision.action == .seatsRefunded ? 1 : 0
            row.statistics.seatsUnclaimed += decision.action == .seatsUnclaimed ? 1 : 0
            row.statistics.assignmentRevoked += decision.action == .assignmentRevoked ? 1 : 0
            let square = Double(decision.revenue) * Double(decision.revenue)
            if treatment {
                row.treatmentRevenue.total += decision.revenue
                row.treatmentRevenue.squares += square
            }
            if decision.heldOut {
                row.holdoutRevenue.total += decision.revenue
                row.holdoutRevenue.squares += square
            }
            days[key] = row
        }
        return days.values.sorted {
            ($0.day, $0.statistics.ruleId, $0.currency ?? "") < ($1.day, $1.statistics.ruleId, $1.currency ?? "")
        }
    }

    static func storedDecisions(_ repository: any VerdictRepository) async throws -> [OfferDecisionRecord] {
        try await repository.offerDecisions(decidedIn: DecisionPeriod(), after: nil, limit: 10_000)
    }

    @Test("the offer rollup equals the decisions it sums after inserts, imports, outcomes and revenue; the backfill agrees",
          arguments: TestBackend.selected)
    func offerRollupFollowsEveryWrite(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            var mix = Mix(state: 7)
            let records = (0..<300).map { Self.decision($0, &mix) }
            for record in records[..<150] {
                _ = try await repository.insertOfferDecision(record, followUp: nil, caps: [])
            }
            try await repository.importOfferDecisions(Array(records[150...]))
            for customer in 0..<12 {
                let actions: [CustomerAction] = [
                    .cancelled, .appleOffer, .switched, .renewed, .resubscribed, .reenabled, .addedSeats, .seatsRefunded,
                    .seatsUnclaimed, .assignmentRevoked,
                ]
                _ = try await repository.recordCustomerAction(
                    CustomerActionEvent(
                        originalTransactionId: "o-\(customer)", action: actions[customer % actions.count],
                        offerIdentifiers: customer % 2 == 0 ? ["offer-0"] : [], offerType: customer % 4 == 1 ? 5 : nil,
                        notificationUUID: "back-\(customer)", actedAt: 3 * Self.day),
                    attributionWindow: Self.window, at: 4 * Self.day)
                for (currency, amount) in [("USD", Int64(9_990)), ("EUR", 4_990)] {
                    _ = try await repository.recordOfferRevenue(
                        .purchase(originalTransactionId: "o-\(customer)", transactionId: "t-\(customer)-\(currency)",
                                  purchasedAt: 4 * Self.day, amount: amount, currency: currency),
                        window: Self.window, at: 4 * Self.day)
                }
            }
            _ = try await repository.recordOfferRevenue(.refund(transactionId: "t-3-USD"), window: Self.window, at: 5 * Self.day)

            let stored = try await Self.storedDecisions(repository)
            #expect(stored.contains { $0.revenue > 0 } && stored.contains { $0.outcome != nil })
            #expect(Set(stored.compactMap(\.action)).isSuperset(of: [
                .cancelled, .appleOffer, .switched, .renewed, .redeemed, .seatsRefunded, .seatsUnclaimed, .assignmentRevoked,
            ]))
            let expected = Self.expectedOfferDays(stored)
            let rollup = try await repository.offerRuleDays(DayRange())
            #expect(rollup == expected)
            #expect(try await repository.offerRuleDays(DayRange(first: 2, last: 3)) == expected.filter { (2...3).contains($0.day) })

            // Per rule over every day: the sums of the rollup (decisions without a rule left out).
            let perRule = Dictionary(grouping: expected.filter { !$0.statistics.ruleId.isEmpty }, by: \.statistics.ruleId)
            let statistics = try await repository.offerRuleStatistics()
            #expect(statistics.map(\.ruleId) == perRule.keys.sorted())
            for rule in statistics {
                #expect(rule.decisions == perRule[rule.ruleId]?.reduce(0) { $0 + $1.statistics.decisions })
                #expect(rule.convertedHoldout == perRule[rule.ruleId]?.reduce(0) { $0 + $1.statistics.convertedHoldout })
                #expect(rule.seatsRefunded == perRule[rule.ruleId]?.reduce(0) { $0 + $1.statistics.seatsRefunded })
                #expect(rule.assignmentRevoked == perRule[rule.ruleId]?.reduce(0) { $0 + $1.statistics.assignmentRevoked })
            }

            // The migration's backfill computes the same rows from scratch.
            let sql = try #require(repository as? SQLRepository)
            let backfill = Migrations.offerRuleDays.statements(sql.driver.dialect)[1]
            try await sql.driver.transaction(timeout: nil) { db in
                try await db.execute("DELETE FROM offer_rule_days")
                try await db.execute(backfill)
            }
            #expect(try await repository.offerRuleDays(DayRange()) == expected)
        }
    }

    @Test("the refund rollup follows inserts, submission states and Apple's outcomes", arguments: TestBackend.selected)
    func refundRollupFollowsEveryWrite(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            var mix = Mix(state: 11)
            let requests = (0..<60).map { Self.request($0, &mix) }
            for request in requests { try await repository.insertConsumptionRequest(request, submission: nil) }
            for (index, request) in requests.enumerated() where index % 4 != 3 {
                let state: ConsumptionRequestRecord.State = [.sent, .notSent, .failed][index % 4]
                try await repository.updateConsumptionSubmission(id: request.id, state: state, attempt: nil, lastError: nil, at: 9 * Self.day)
            }
            for index in stride(from: 0, to: 60, by: 5) {
                try await repository.recordConsumptionOutcome(
                    transactionId: "t-\(index)", outcome: index % 10 == 0 ? "REFUND" : "REFUND_DECLINED", detail: "{}",
                    notificationUUID: "out-\(index)", at: 9 * Self.day)
            }
            // Seat refunds: their own outcome, never a granted refund; the latest outcome counts.
            for index in [1, 2, 5] {
                try await repository.recordConsumptionOutcome(
                    transactionId: "t-\(index)", outcome: "REFUND_SEATS", detail: "{}", notificationUUID: "seats-\(index)", at: 9 * Self.day)
            }
            try await repository.recordConsumptionOutcome(
                transactionId: "t-0", outcome: "REFUND_REVERSED", detail: "{}", notificationUUID: "rev-0", at: 9 * Self.day)

            var stored: [ConsumptionRequestRecord] = []
            for request in requests { stored.append(try #require(try await repository.consumptionRequest(id: request.id))) }
            let rollup = try await repository.refundRuleDays(DayRange())
            for day in 0..<4 {
                let requestsOfDay = stored.filter { DayRange.day(of: $0.decidedAt) == Int64(day) }
                let rows = rollup.filter { $0.day == Int64(day) }
                #expect(rows.reduce(0) { $0 + $1.statistics.requests } == requestsOfDay.count)
                #expect(rows.reduce(0) { $0 + $1.statistics.sent } == requestsOfDay.filter { $0.state == .sent }.count)
                #expect(rows.reduce(0) { $0 + $1.statistics.failed } == requestsOfDay.filter { $0.state == .failed }.count)
                #expect(rows.reduce(0) { $0 + $1.statistics.granted }
                        == requestsOfDay.filter { $0.outcome == "REFUND" || $0.outcome == "REFUND_REVERSED" }.count)
                #expect(rows.reduce(0) { $0 + $1.statistics.declined } == requestsOfDay.filter { $0.outcome == "REFUND_DECLINED" }.count)
                #expect(rows.reduce(0) { $0 + $1.statistics.seatsRefunded } == requestsOfDay.filter { $0.outcome == "REFUND_SEATS" }.count)
            }
            #expect(rollup.reduce(0) { $0 + $1.statistics.seatsRefunded } == 3)
            #expect(rollup.reduce(0) { $0 + $1.statistics.reversed } == 1)
            // Summed over the days, the rollup is the per-rule statistics.
            let totals = try await repository.refundRuleStatistics()
            #expect(totals.reduce(0) { $0 + $1.requests } == 60)
            #expect(totals.reduce(0) { $0 + $1.seatsRefunded } == 3)
            #expect(totals.map(\.ruleId) == Set(rollup.map(\.statistics.ruleId)).sorted())
        }
    }

    @Test("notifications are counted per day of receipt, type and subtype", arguments: TestBackend.selected)
    func notificationsPerDay(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            for index in 0..<9 {
                var notification = Fixture.notification("u-\(index)", signedDate: Int64(index % 3) * Self.day + 10)
                notification.notificationType = index % 2 == 0 ? "DID_RENEW" : "DID_CHANGE_RENEWAL_STATUS"
                notification.subtype = index % 2 == 0 ? nil : "AUTO_RENEW_DISABLED"
                _ = try await repository.insertNotification(notification, processingJob: Fixture.job())
            }
            // A repeated delivery is stored once, and counted once.
            _ = try await repository.insertNotification(Fixture.notification("u-0", signedDate: 10), processingJob: Fixture.job())
            let days = try await repository.notificationDays(DayRange(first: 0, last: 1))
            #expect(days == [
                NotificationDay(day: 0, notificationType: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", notifications: 1),
                NotificationDay(day: 0, notificationType: "DID_RENEW", subtype: nil, notifications: 2),
                NotificationDay(day: 1, notificationType: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", notifications: 2),
                NotificationDay(day: 1, notificationType: "DID_RENEW", subtype: nil, notifications: 1),
            ])
        }
    }

    @Test("a purchase is credited once to the customer's decisions before it, in its currency, inside the revenue window; a refund takes it back",
          arguments: TestBackend.selected)
    func revenueLedger(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            func decision(_ id: String, decidedAt: Int64, expiresAt: Int64?, currency: String? = "USD", heldOut: Bool = false) async throws {
                _ = try await repository.insertOfferDecision(OfferDecisionRecord(
                    id: id, originalTransactionId: "o-1", notificationUUID: "n-\(id)", trigger: "EXPIRED", bundleHash: "h",
                    ruleId: "r", ruleLine: 1, offerId: "promo", offerType: "PROMOTIONAL", productId: "p", heldOut: heldOut,
                    decidedAt: decidedAt, expiresAt: expiresAt, json: "{}", currency: currency), followUp: nil, caps: [])
            }
            try await decision("early", decidedAt: 1_000, expiresAt: 2_000)            // counts purchases to 1,000 + window
            try await decision("held", decidedAt: 3_000, expiresAt: nil, heldOut: true) // counts purchases to 3,000 + window
            try await decision("euro", decidedAt: 3_000, expiresAt: 4_000, currency: "EUR")
            try await decision("later", decidedAt: 3_000_000_000, expiresAt: 3_100_000_000) // after the purchases
            func purchase(_ id: String, at: Int64, amount: Int64 = 9_990, currency: String = "USD") async throws -> Int {
                try await repository.recordOfferRevenue(
                    .purchase(originalTransactionId: "o-1", transactionId: id, purchasedAt: at, amount: amount, currency: currency),
                    window: Self.window, at: at)
            }
            func revenue(_ id: String) async throws -> Int64? { try await repository.offerDecision(id: id)?.revenue }

            #expect(try await purchase("t-1", at: 10_000) == 2)       // early and held (USD, before, inside)
            #expect(try await purchase("t-1", at: 10_000) == 0)       // the same transaction again: nothing
            #expect(try await purchase("t-2", at: 1_000 + Self.window) == 2) // the window's last millisecond
            #expect(try await purchase("t-3", at: 1_001 + Self.window) == 1) // past early's window, inside held's
            #expect(try await revenue("early") == 19_980)
            #expect(try await revenue("held") == 29_970)
            #expect(try await revenue("euro") == 0)
            #expect(try await revenue("later") == 0)
            #expect(try await purchase("t-4", at: 20_000, amount: 4_990, currency: "EUR") == 1)
            #expect(try await revenue("euro") == 4_990)

            // A refund takes back what its purchase credited, once; a reversal credits it again.
            let refund = { try await repository.recordOfferRevenue(.refund(transactionId: "t-1"), window: Self.window, at: 70_000) }
            #expect(try await refund() == 2)
            #expect(try await refund() == 0)
            #expect(try await revenue("early") == 9_990)
            #expect(try await repository.recordOfferRevenue(.refund(transactionId: "unknown"), window: Self.window, at: 1) == 0)
            #expect(try await repository.recordOfferRevenue(
                .refundReversed(transactionId: "t-1"), window: Self.window, at: 80_000) == 2)
            #expect(try await revenue("early") == 19_980)

            // The rollup carries the arms' sums and sums of squares.
            let day = try #require(try await repository.offerRuleDays(DayRange()).first { $0.currency == "USD" })
            #expect(day.treatmentRevenue == .init(total: 19_980, squares: 19_980.0 * 19_980.0))
            #expect(day.holdoutRevenue == .init(total: 29_970, squares: 29_970.0 * 29_970.0))
        }
    }
}
