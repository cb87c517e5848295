import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictTestSupport

/// The seat facts of a decision, end to end: the worked example's team (8 seats, then 4 added)
/// turning auto-renew off is decided on 12 seats charged 101.88 USD — what the period's
/// transactions charged, in `subscription.amount` and `customer.lifetimePurchased` — while
/// `subscription.price` stays Apple's per-seat price of the latest transaction (the addition's
/// 6.99). A single-seat subscriber of the same product has 1 seat and an amount equal to its price.
@Suite struct TeamFactsTests {
    @Test(arguments: TestBackend.selected)
    func aTeamIsDecidedOnWhatItsSeatsCostNotOnItsPrice(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let team = try await TeamScenario.workedExample(harness)
            let decision = try await TeamScenario.turnAutoRenewOff(harness, team.otid)
            #expect(decision["trigger"]?.stringValue == "AUTO_RENEW_DISABLED")
            // No shipped rule offers a month-old monthly team anything for this; the facts are the point.
            #expect(decision["ruleId"] == nil && decision["offer"] == nil && decision.vetoedBy == nil)

            #expect(decision.seen("subscription.seats") == .integer(12))
            #expect(decision.seen("subscription.amount") == TeamScenario.usd(101_880))
            #expect(decision.seen("subscription.price") == TeamScenario.usd(6_990))
            #expect(decision.seen("subscription.renewalSeats") == .integer(12))
            #expect(decision.seen("subscription.renewalAmount") == TeamScenario.usd(101_880))
            #expect(decision.seen("subscription.ownership")?.stringValue == "PURCHASED")
            #expect(decision.seen("subscription.billingPlan")?.stringValue == "BILLED_UPFRONT")
            #expect(decision.seen("subscription.commitment") == nil)
            // A seat addition is not a period of its own, also when the purchase was stored as first
            // signed, before the addition (without SEAT_ADDITION, which Apple adds to it only later).
            #expect(decision.seen("subscription.paidPeriods") == .integer(1))
            #expect(decision.seen("customer.lifetimePurchased") == .object(["USD": TeamScenario.usd(101_880)]))
            #expect(decision.seen("customer.lifetimeRefunded") == .object([:]))
            // Each transaction with its own seats and charge, newest first.
            let transactions = decision.seenList("customer.transactions")
            #expect(transactions.map { $0["seats"] } == [.integer(4), .integer(8)])
            #expect(transactions.map { $0["amount"] } == [TeamScenario.usd(27_960), TeamScenario.usd(73_920)])
            #expect(transactions.map { $0["price"] } == [TeamScenario.usd(6_990), TeamScenario.usd(9_240)])

            let single = try await TeamScenario.turnAutoRenewOff(harness, try await TeamScenario.singleSeat(harness, price: 7_990).otid)
            #expect(single.seen("subscription.seats") == .integer(1))
            #expect(single.seen("subscription.amount") == TeamScenario.usd(7_990))
            #expect(single.seen("subscription.price") == TeamScenario.usd(7_990))
            #expect(single.seen("subscription.renewalSeats") == .integer(1))
            #expect(single.seen("subscription.renewalAmount") == TeamScenario.usd(7_990))
            #expect(single.seen("subscription.ownership")?.stringValue == "PURCHASED")
            #expect(single.seen("customer.lifetimePurchased") == .object(["USD": TeamScenario.usd(7_990)]))
            #expect(single.seenList("customer.transactions").map { $0["seats"] } == [.integer(1)])
            #expect(single.seenList("customer.transactions").map { $0["amount"] } == [TeamScenario.usd(7_990)])
        }
    }
}
