import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictTestSupport

/// Members of a team (Apple-hosted invitations, `ASSIGNED` subscriptions of their own) get no
/// offer: a member turning auto-renew off on an annual team whose seats cost full price would be
/// offered 40% off by `annual-full-price-payer`, but the built-in veto `assigned-member` blocks
/// it, and the purchaser who manages the seats is offered it. A member's copy of the purchaser's
/// transaction is never money: not the member's (no lifetime purchase), and not counted again in
/// the purchaser's lifetime money when the app links the two (the same appAccountToken: the app's
/// account that bought the seats also took one on a second Apple Account), though the purchaser's
/// facts then list it.
@Suite struct TeamMemberTests {
    /// 5 annual seats at the full price of 59.99 USD each.
    static let seatPrice: Int64 = 59_990
    static let charged: Int64 = 5 * seatPrice

    @Test(arguments: TestBackend.selected)
    func aMemberIsBlockedAndTheirCopyIsNeverMoney(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let store = harness.store
            let token = UUID()
            let bought = try await TeamScenario.step(harness) {
                try await store.subscribe(SubscribeRequest(
                    productId: TeamScenario.annual, price: Self.seatPrice, currency: "USD", appAccountToken: token, seats: 5))
            }
            let purchaser = try #require(bought.originalTransactionId)
            let joined = try await TeamScenario.step(harness) { try await store.assignMember(purchaserOriginalTransactionId: purchaser) }
            let member = try #require(joined.originalTransactionId)
            #expect(joined.transaction?.inAppOwnershipType == .assigned)

            let blocked = try await TeamScenario.turnAutoRenewOff(harness, member)
            #expect(blocked.vetoedBy == "assigned-member")
            #expect(blocked["offer"] == nil && blocked["ruleId"] == nil)
            // The rule that would have decided is the one marked blocked in the trace.
            let explanation = blocked[path: "record.explanation"]?.stringValue ?? ""
            #expect(explanation.contains("annual-full-price-payer"), "\(explanation)")
            #expect(blocked.seen("subscription.ownership")?.stringValue == "ASSIGNED")
            #expect(blocked.seen("subscription.seats") == .integer(5))
            #expect(blocked.seen("subscription.amount") == TeamScenario.usd(Self.charged), "what the purchaser was charged")
            #expect(blocked.seen("customer.lifetimePurchased") == .object([:]), "the member paid nothing")
            #expect(blocked.seenList("customer.transactions").map { $0["ownership"]?.stringValue } == ["ASSIGNED"])
            #expect(try await harness.request(.GET, "/v1/subscriptions/\(member)/offer").body.jsonObject == ["offer": .null])

            // A second member the app knows as the purchaser (same appAccountToken): one customer.
            let linked = try await TeamScenario.step(harness) {
                try await store.assignMember(purchaserOriginalTransactionId: purchaser, appAccountToken: token)
            }
            #expect(linked.transaction?.inAppOwnershipType == .assigned)
            let offered = try await TeamScenario.turnAutoRenewOff(harness, purchaser)
            #expect(offered.vetoedBy == nil)
            #expect(offered["ruleId"]?.stringValue == "annual-full-price-payer")
            #expect(offered[path: "offer.id"]?.stringValue == "lumen-annual-40off")
            #expect(offered["heldOut"] == .bool(false))
            #expect(offered.seen("subscription.ownership")?.stringValue == "PURCHASED")
            #expect(offered.seen("subscription.seats") == .integer(5))
            let ownership = offered.seenList("customer.transactions").compactMap { $0["ownership"]?.stringValue }
            #expect(ownership.sorted() == ["ASSIGNED", "PURCHASED"], "the linked member's copy is listed")
            #expect(offered.seen("customer.lifetimePurchased") == .object(["USD": TeamScenario.usd(Self.charged)]))
        }
    }
}
