import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictTestSupport

/// A seat refund as the next decision sees it: Apple refunds 2 of the 8 seats of the worked
/// example's first transaction (`REFUND` / `SEATS`); when the team then turns auto-renew off, the
/// facts count 10 seats while the period's charge stays 101.88 USD, `customer.refunds` holds one
/// `REFUND_SEATS` refund of 2 seats, the refunded money is estimated at 2 × 9.24 USD, and nothing
/// reads as a full refund. The seat refund is a refund to the shipped rules' recent-refunder veto.
@Suite struct TeamSeatRefundTests {
    @Test(arguments: TestBackend.selected)
    func aSeatRefundLowersSeatsNotTheChargeAndIsNeverAFullRefund(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let team = try await TeamScenario.workedExample(harness)
            let refund = try await TeamScenario.step(harness) {
                try await harness.store.refundSeats(transactionId: team.purchase, seats: 2)
            }
            #expect(refund.notification.notificationType == .refund && refund.notification.subtype == .seats)
            let decision = try await TeamScenario.turnAutoRenewOff(harness, team.otid)

            #expect(decision.seen("subscription.seats") == .integer(10))
            #expect(decision.seen("subscription.amount") == TeamScenario.usd(101_880))
            #expect(decision.seen("subscription.renewalSeats") == .integer(10))
            #expect(decision.seen("customer.lifetimePurchased") == .object(["USD": TeamScenario.usd(101_880)]))
            #expect(decision.seen("customer.lifetimeRefunded") == .object(["USD": TeamScenario.usd(18_480)]))

            let refunds = decision.seenList("customer.refunds")
            try #require(refunds.count == 1, "\(refunds)")
            #expect(refunds[0]["revocationType"]?.stringValue == "REFUND_SEATS")
            #expect(refunds[0]["seats"] == .integer(2))
            #expect(refunds[0]["price"] == TeamScenario.usd(9_240))
            #expect(refunds[0]["productId"]?.stringValue == TeamScenario.monthly)

            // The refunded transaction stays valid for its other 6 seats: no revocation date.
            let transactions = decision.seenList("customer.transactions")
            let purchase = try #require(transactions.first { $0["amount"] == TeamScenario.usd(73_920) })
            #expect(purchase["seats"] == .integer(6))
            #expect(purchase["revocationType"]?.stringValue == "REFUND_SEATS")
            #expect(purchase["revocationDate"] == nil)
            let types = (refunds + transactions).compactMap { $0["revocationType"]?.stringValue }
            #expect(!types.contains("REFUND_FULL"), "\(types)")

            #expect(decision.vetoedBy == "no-offers-to-recent-refunders")
            #expect(decision["offer"] == nil)
        }
    }
}
