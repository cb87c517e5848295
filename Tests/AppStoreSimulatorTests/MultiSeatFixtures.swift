import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// What the multiseat suites share: the worked example's product (graduated tiers from seat 1 at
/// 9.99, from seat 6 at 7.99, from seat 11 at 5.99), its purchase, and reading signed payloads back
/// through Verdict's verifier and the API.
enum MultiSeat {
    static let pricing = SeatPricing(tiers: [
        SeatPricing.Tier(firstSeat: 1, price: 9990),
        SeatPricing.Tier(firstSeat: 6, price: 7990),
        SeatPricing.Tier(firstSeat: 11, price: 5990),
    ])

    /// A new customer buys `seats` seats of the team plan.
    static func purchase(_ harness: SimulatorHarness, seats: Int32 = 8,
                         invitationManagement: InvitationManagement? = nil) async throws -> ScenarioResult {
        try await harness.store.subscribe(SubscribeRequest(
            productId: "com.example.team", subscriptionGroupIdentifier: "group.team", seats: seats,
            seatPricing: pricing, invitationManagement: invitationManagement))
    }

    /// The notification of `result`, verified as a service would verify it.
    static func verified(_ harness: SimulatorHarness, _ result: ScenarioResult) async throws -> VerifiedNotification {
        try await SignedScenarioTests.verifier(harness).verifyNotification(result.notification.signedPayload)
    }

    /// Every transaction of the customer of `id` from Get Transaction History, verified, in
    /// purchase order.
    static func history(_ harness: SimulatorHarness, of id: String) async throws -> [JWSTransactionDecodedPayload] {
        let verifier = try SignedScenarioTests.verifier(harness)
        var transactions: [JWSTransactionDecodedPayload] = []
        for page in try await harness.client.getAllTransactionHistory(transactionId: id) {
            for signed in page.signedTransactions ?? [] {
                transactions.append(try await verifier.verifyTransaction(signed))
            }
        }
        return transactions.sorted { ($0.purchaseDate ?? .distantPast, $0.transactionId ?? "") < ($1.purchaseDate ?? .distantPast, $1.transactionId ?? "") }
    }

    /// A tier, for comparisons.
    static func tier(_ price: Int64, _ quantity: Int32) -> MultiSeatPriceTier {
        MultiSeatPriceTier(price: price, quantity: quantity)
    }
}
