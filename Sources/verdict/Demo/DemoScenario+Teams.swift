import AppStoreServer
import AppStoreSimulator
import Foundation

/// The team cases: a subscription sold to a group. Apple's `price` on a multiseat transaction is
/// the average per seat; what the team paid is the sum of its seat tiers, over every transaction
/// of the period (a seat addition is a transaction of its own). Members of the group hold
/// `ASSIGNED` transactions that repeat the purchaser's — Apple refuses any answer about them.
extension DemoScenario {
    /// Lumen Pro's graduated seat pricing: seats 1–5 at 9.99, 6–10 at 7.99, 11 and more at 5.99.
    static let teamPricing = SeatPricing(tiers: [
        .init(firstSeat: 1, price: 9_990), .init(firstSeat: 6, price: 7_990), .init(firstSeat: 11, price: 5_990),
    ])

    /// Plays (j) and (k) and prints each.
    func playTeams() async throws -> [DemoCaseResult] {
        var results: [DemoCaseResult] = []
        // (j) A team of 8, grown to 12, cuts back to 6 seats from the next renewal.
        results += try await playTreated {
            let team = try await subscribe(SubscribeRequest(
                productId: Product.monthly, currency: "USD", seats: 8, seatPricing: Self.teamPricing, invitationManagement: .apple))
            try await settled(store.addSeats(originalTransactionId: team, seats: 4))
            minuteLater()
            let reduced = try await settled(store.reduceSeats(originalTransactionId: team, seats: 6))
            return OfferCase(
                name: "team-seat-reduction", title: "(j) Team buyer cutting seats", productId: Product.monthly,
                customer: "\(Product.monthly) · 8 seats bought for \(DemoFormat.money(73_920, "USD")) (5 at 9.99, 3 at 7.99), "
                    + "then 4 added for \(DemoFormat.money(27_960, "USD")):\n12 seats, \(DemoFormat.money(101_880, "USD")) this month "
                    + "(Apple's price field says \(DemoFormat.money(6_990, "USD")): the average per seat of the last transaction)",
                event: "will renew with 6 seats instead of 12 (DECREASE_QUANTITY)",
                originalTransactionId: team, notificationUUID: reduced.notification.notificationUUID)
        }
        results.append(try await memberRefundRequest())
        return results
    }

    /// (k) A member of an Apple-hosted team asks Apple for a refund: Verdict records the request
    /// and decides it is not Verdict's to answer — Apple refuses Send Consumption Information for
    /// an `ASSIGNED` transaction — so nothing is sent.
    func memberRefundRequest() async throws -> DemoCaseResult {
        let team = try await subscribe(SubscribeRequest(
            productId: Product.annual, currency: "USD", period: .oneYear, seats: 5, seatPricing: Self.teamPricing,
            invitationManagement: .apple))
        let token = UUID()
        let member = try await settled(store.assignMember(purchaserOriginalTransactionId: team, appAccountToken: token))
        guard let memberOriginal = member.originalTransactionId, let memberTransaction = member.transactionId else {
            throw DemoError("the simulator's member has no transaction")
        }
        minuteLater()
        return try await play(RefundCase(
            name: "team-member-refund", title: "(k) A team member asks for a refund", productId: Product.annual,
            customer: "\(Product.annual) · a member of a 5-seat team (the purchaser paid; the member holds an ASSIGNED transaction)",
            transactionId: memberTransaction, originalTransactionId: memberOriginal, appAccountToken: token, consented: true,
            facts: DemoRefundFacts(deliveryStatus: .delivered, consumptionPercentage: nil, sampleContentProvided: true, sessionsSincePurchase: 3),
            reason: .unsatisfiedWithPurchase))
    }
}
