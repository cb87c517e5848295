import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictTestSupport

/// A team cutting seats is decided as the shipped rules say: the worked example's team (12 seats)
/// lowering its next renewal to 6 sends `DECREASE_QUANTITY`, which the offers section admits; the
/// decision's trigger is the subtype, `team-seat-reduction` offers `lumen-team-seats-25off` (pending,
/// for the team's product), and the facts show 12 seats now and 6 at the renewal. A single-seat
/// subscriber sent the same subtype is decided on 1 seat and never gets the team offer.
@Suite struct TeamSeatReductionTests {
    static let rule = "team-seat-reduction"
    static let offer = "lumen-team-seats-25off"

    @Test(arguments: TestBackend.selected)
    func aTeamCuttingSeatsGetsTheTeamOfferAndASingleSeatNever(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let team = try await TeamScenario.workedExample(harness)
            let reduced = try await TeamScenario.step(harness) {
                try await harness.store.reduceSeats(originalTransactionId: team.otid, seats: 6)
            }
            #expect(reduced.notification.subtype == .decreaseQuantity)
            let decision = try await TeamScenario.decision(harness, team.otid, on: reduced)
            #expect(decision["trigger"]?.stringValue == "DECREASE_QUANTITY")
            #expect(decision["ruleId"]?.stringValue == Self.rule)
            #expect(decision["ruleLine"]?.integerValue == Int64(try OfferDecisionTests.line(ofRule: Self.rule)))
            #expect(decision[path: "offer.id"]?.stringValue == Self.offer)
            #expect(decision["heldOut"] == .bool(false))
            #expect(decision.vetoedBy == nil)
            #expect(decision.seen("event.type")?.stringValue == "DID_CHANGE_RENEWAL_PREF")
            #expect(decision.seen("event.subtype")?.stringValue == "DECREASE_QUANTITY")
            #expect(decision.seen("subscription.seats") == .integer(12))
            #expect(decision.seen("subscription.renewalSeats") == .integer(6))
            // The 6 seats that renew: 5 × 9.99 + 1 × 7.99.
            #expect(decision.seen("subscription.renewalAmount") == TeamScenario.usd(57_940))
            #expect(decision.seen("subscription.amount") == TeamScenario.usd(101_880))
            let pending = try await harness.request(.GET, "/v1/subscriptions/\(team.otid)/offer").body.jsonObject
            #expect(pending[path: "offer.offerId"]?.stringValue == Self.offer)
            #expect(pending[path: "offer.productId"]?.stringValue == TeamScenario.monthly)

            // Apple sends no seat change for a single seat (the simulator refuses one), so the same
            // notification is signed here with the subscriber's own transaction and renewal info.
            let (bought, single) = try await TeamScenario.singleSeat(harness)
            harness.store.clock.advance(by: 60)
            let signed = try await harness.deliverSigned(
                .didChangeRenewalPref, .decreaseQuantity, transaction: try #require(bought.transaction),
                renewalInfo: bought.renewalInfo)
            #expect(signed.view["state"]?.stringValue == "processed")
            let none = try await TeamScenario.decision(harness, single, notificationUUID: signed.notificationUUID)
            #expect(none["trigger"]?.stringValue == "DECREASE_QUANTITY")
            #expect(none.seen("subscription.seats") == .integer(1))
            #expect(none.seen("subscription.renewalSeats") == .integer(1))
            #expect(none["ruleId"] == nil && none["offer"] == nil)
            #expect(try await harness.decisions(single).allSatisfy { $0[path: "offer.id"]?.stringValue != Self.offer })
        }
    }
}
