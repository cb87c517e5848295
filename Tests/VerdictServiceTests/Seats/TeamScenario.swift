import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// The subscriptions of the seat suites, played through the simulator and each step processed by
/// the service before the next, and the offer decisions the service made on them (with the facts
/// the rules saw).
///
/// The worked example is a team on Lumen Pro monthly with graduated seat pricing: 8 seats
/// (5 × 9.99 + 3 × 7.99 = 73.92 USD, 9.24 a seat on average), then 13 days later 4 more
/// (2 × 7.99 + 2 × 5.99 = 27.96 USD, 6.99 a seat): 12 seats for 101.88 USD.
///
/// The simulator's clock is frozen, and the service keeps a transaction or renewal info only when
/// Apple signed it later than the one it has: every step moves the clock first, as Apple's
/// notifications arrive one after another.
enum TeamScenario {
    /// A product the shipped rules' `team-seat-reduction` accepts (`constants.proProducts`).
    static let monthly = "com.lumen.pro.monthly"
    static let annual = "com.lumen.pro.annual"
    /// The worked example's graduated pricing: seats 1–5 at 9.99, 6–10 at 7.99, 11 on at 5.99.
    static let pricing = SeatPricing(tiers: [
        .init(firstSeat: 1, price: 9990), .init(firstSeat: 6, price: 7990), .init(firstSeat: 11, price: 5990),
    ])

    /// A team's subscription: its original transaction id, the purchase's transaction id and the
    /// seat addition's.
    struct Team {
        var otid: String
        var purchase: String
        var addition: String
    }

    /// Moves the simulator's clock a minute on, runs `scenario` and waits until the service
    /// processed its notification.
    @discardableResult
    static func step(_ harness: ServiceHarness, _ scenario: () async throws -> ScenarioResult) async throws -> ScenarioResult {
        harness.store.clock.advance(by: 60)
        return try await harness.settled(scenario())
    }

    /// The worked example, bought by a new customer: 8 seats, 13 days later 4 more.
    static func workedExample(_ harness: ServiceHarness) async throws -> Team {
        let bought = try await step(harness) {
            try await harness.store.subscribe(SubscribeRequest(
                productId: monthly, price: 9990, currency: "USD", seats: 8, seatPricing: pricing))
        }
        let otid = try #require(bought.originalTransactionId)
        // As in production, the service reads the new customer's history long before the seats are
        // added: what it keeps of the purchase is what Apple signed before the addition.
        try await historyRead(harness, otid)
        harness.store.clock.advance(by: 13 * 86_400)
        let added = try await step(harness) { try await harness.store.addSeats(originalTransactionId: otid, seats: 4) }
        #expect(bought.transaction?.chargedAmount == 73_920 && added.transaction?.chargedAmount == 27_960,
                "the simulator's worked example changed")
        return Team(otid: otid, purchase: try #require(bought.transactionId), addition: try #require(added.transactionId))
    }

    /// Waits until the service read `otid`'s customer's App Store history to its last page (the
    /// `sync-history` job a first sight enqueues).
    static func historyRead(_ harness: ServiceHarness, _ otid: String, timeout: Duration = .seconds(45)) async throws {
        let deadline = ContinuousClock.now + timeout
        while try await harness.service.apps.first.repository.customer(originalTransactionId: otid)?.historySyncedAt == nil {
            guard ContinuousClock.now < deadline else { throw ServiceTestError("the history of \(otid) was not read in time") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// An ordinary single-seat subscriber of `product` at `price` (a new customer): the purchase
    /// and its original transaction id.
    static func singleSeat(_ harness: ServiceHarness, product: String = monthly, price: Int64 = 7990)
        async throws -> (bought: ScenarioResult, otid: String) {
        let bought = try await step(harness) {
            try await harness.store.subscribe(SubscribeRequest(productId: product, price: price, currency: "USD"))
        }
        return (bought, try #require(bought.originalTransactionId))
    }

    /// Turns auto-renew off and returns the decision made on it.
    static func turnAutoRenewOff(_ harness: ServiceHarness, _ otid: String) async throws -> [String: JSONValue] {
        try await decision(harness, otid, on: step(harness) {
            try await harness.store.setAutoRenew(originalTransactionId: otid, enabled: false)
        })
    }

    /// The offer decision the service made for `otid` on `result`'s notification.
    static func decision(_ harness: ServiceHarness, _ otid: String, on result: ScenarioResult) async throws -> [String: JSONValue] {
        try await decision(harness, otid, notificationUUID: result.notification.notificationUUID)
    }

    /// The offer decision the service made for `otid` on the notification `notificationUUID`.
    static func decision(_ harness: ServiceHarness, _ otid: String, notificationUUID: String) async throws -> [String: JSONValue] {
        let decisions = try await harness.decisions(otid)
        return try #require(decisions.first { $0["notificationUUID"]?.stringValue == notificationUUID },
                            "no decision on \(notificationUUID) among \(decisions.count)")
    }

    /// Money as the facts write it.
    static func usd(_ milliunits: Int64) -> JSONValue {
        .object(["milliunits": .integer(milliunits), "currency": .string("USD")])
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// A stored decision's facts (`record.facts`) at a dotted path.
    func seen(_ path: String) -> JSONValue? {
        self[path: "record.facts.\(path)"]
    }

    /// A stored decision's list fact (`customer.transactions`, `customer.refunds`) as objects.
    func seenList(_ path: String) -> [[String: JSONValue]] {
        seen(path)?.arrayValue?.compactMap(\.objectValue) ?? []
    }

    /// The veto that blocked a stored decision (`record.decision.blockedBy.id`), nil when none did.
    var vetoedBy: String? {
        self[path: "record.decision.blockedBy.id"]?.stringValue
    }
}
