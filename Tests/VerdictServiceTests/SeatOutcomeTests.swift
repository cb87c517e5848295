import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictService
import VerdictTestSupport

/// What follows an offer decision on a multiseat subscription: seat losses (a seat refund,
/// unclaimed seats, a member's assignment revoked) are recorded and leave the decision open;
/// added seats, on whatever notification type, are a stay. A seat refund is joined to a refund
/// request as `REFUND_SEATS`, never as the refund granted; `ASSIGNMENT_REVOKE` is never a refund.
/// `UNCLAIM_SEATS` is accepted with `data` and refused without.
@Suite struct SeatOutcomeTests {
    /// A notification type Apple has not named (the seat subtypes ride on one).
    static let unnamedType = NotificationTypeV2(rawValue: "SEAT_QUANTITY_CHANGED")

    @Test(arguments: TestBackend.selected)
    func seatLossesLeaveADecisionOpenAndAddedSeatsCloseIt(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: ["VERDICT_HISTORY_WAIT": "0"]) { harness in
            let store = harness.store
            let (bought, otid) = try await harness.subscribeFullPriceAnnual()
            var purchaser = try #require(bought.transaction)
            try await harness.settled(store.setAutoRenew(originalTransactionId: otid, enabled: false))
            let decision = try #require(try await harness.decisions(otid).first)
            let decisionId = try #require(decision["id"]?.stringValue)
            let ruleId = try #require(decision["ruleId"]?.stringValue)
            func current() async throws -> [String: JSONValue] {
                try #require(try await harness.decisions(otid).first { $0["id"]?.stringValue == decisionId })
            }

            // Apple refunds two of the purchaser's seats: recorded, the decision stays open.
            purchaser.revokedSeatQuantity = 2
            let seatRefund = try await harness.deliverSigned(.refund, .seats, transaction: purchaser)
            #expect(seatRefund.handlerOutput("offer-outcomes") == "1 decision outcome(s) recorded (seats_refunded)")
            var now = try await current()
            #expect(now["action"]?.stringValue == "seats_refunded")
            #expect(now["outcome"] == nil)
            #expect(try await harness.ruleStatistics(ruleId)?["seatsRefunded"]?.integerValue == 1)
            #expect(try await harness.ruleStatistics(ruleId)?["convertedTreatment"]?.integerValue == 0)

            // Unclaimed seats and a member's revoked assignment: their own actions (the first one is kept).
            let unclaimed = try await harness.deliverSigned(
                .unclaimSeats, transaction: purchaser, unclaimInfo: UnclaimInfo(unclaimSeatIds: [UUID().uuidString.lowercased()]))
            #expect(unclaimed.status == 200)
            #expect(unclaimed.view["notificationType"]?.stringValue == "UNCLAIM_SEATS")
            #expect(unclaimed.handlerOutput("offer-outcomes") == "0 decision outcome(s) recorded (seats_unclaimed)")
            var revoked = ServiceHarness.memberTransaction(of: purchaser, id: "9200000000000001")
            revoked.revocationType = .assignmentRevoke
            revoked.revocationDate = store.now
            let revoke = try await harness.deliverSigned(.revoke, transaction: revoked)
            #expect(revoke.handlerOutput("offer-outcomes") == "0 decision outcome(s) recorded (assignment_revoked)")
            #expect(try await current()["action"]?.stringValue == "seats_refunded")

            // Seats added, on a type this version does not know: a stay that closes the decision,
            // and a purchase credited at what it charged (the tiers' sum, not the average price).
            store.clock.advance(by: 600)
            var added = purchaser
            added.transactionId = "9300000000000001"
            added.purchaseDate = store.now
            added.revokedSeatQuantity = nil
            added.quantity = 3
            added.price = 5_000
            added.multiSeatInfo = TransactionMultiSeatInfo(priceTiers: [
                MultiSeatPriceTier(price: 6_000, quantity: 1), MultiSeatPriceTier(price: 4_500, quantity: 2),
            ])
            let increase = try await harness.deliverSigned(Self.unnamedType, .increaseQuantity, transaction: added)
            #expect(increase.view["state"]?.stringValue == "processed")
            #expect(increase.handlerOutput("offer-outcomes") == "1 decision outcome(s) recorded (added_seats)")
            #expect(increase.handlerOutput("offer-revenue") == "revenue credited to 1 decision(s)")
            // The offers section is asked too, but cannot type an event of an unknown type.
            #expect(increase.handlerOutput("offers")?.hasPrefix("not decided") == true)
            now = try await current()
            #expect(now["outcome"]?.stringValue == "retained")
            #expect(now["action"]?.stringValue == "added_seats")
            let rule = try #require(try await harness.ruleStatistics(ruleId))
            #expect(rule["addedSeats"]?.integerValue == 1)
            #expect(rule["seatsRefunded"]?.integerValue == 0)
            #expect(rule["convertedTreatment"]?.integerValue == 1)
            let repository = harness.service.apps.first.repository
            #expect(try await repository.offerDecision(id: decisionId)?.revenue == 15_000)

            // A seat refund of the added seats takes no revenue back; a full refund does.
            added.revokedSeatQuantity = 1
            try await harness.deliverSigned(.refund, .seats, transaction: added)
            #expect(try await repository.offerDecision(id: decisionId)?.revenue == 15_000)
            added.revokedSeatQuantity = nil
            added.revocationType = .refundFull
            added.revocationDate = store.now
            try await harness.deliverSigned(.refund, transaction: added)
            #expect(try await repository.offerDecision(id: decisionId)?.revenue == 0)
        }
    }

    @Test(arguments: TestBackend.selected)
    func aSeatRefundIsItsOwnRefundOutcomeAndARevokedAssignmentIsNone(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: MemberConsumptionTests.settings) { harness in
            let token = UUID()
            try await harness.consent(token)
            let (bought, _) = try await harness.subscribeFullPriceAnnual(appAccountToken: token)
            var purchaser = try #require(bought.transaction)
            let purchaserId = try #require(purchaser.transactionId)
            #expect(try await harness.askRefund(purchaserId, .legal)["state"]?.stringValue == "sent")

            purchaser.multiSeatInfo = TransactionMultiSeatInfo(revokedSeatQuantity: 3)
            let seats = try await harness.deliverSigned(.refund, .seats, transaction: purchaser)
            #expect(seats.handlerOutput("refund-outcomes") == "joined to the refund request")
            let record = try await harness.consumption(purchaserId)
            #expect(record["outcome"]?.stringValue == "REFUND_SEATS")
            let joined = try #require(record["outcomes"]?.arrayValue?.first?.objectValue)
            #expect(joined["type"]?.stringValue == "REFUND_SEATS")
            #expect(joined["revokedSeatQuantity"]?.integerValue == 3)
            let legal = try #require(try await harness.ruleStatistics("legal-requests", refunds: true))
            #expect(legal["granted"]?.integerValue == 0)
            #expect(legal["seatsRefunded"]?.integerValue == 1)

            // A member's request (not applicable), then the purchaser takes the member's
            // subscription away: not a refund, not joined, not counted.
            let memberId = "9100000000000003"
            _ = try await MemberConsumptionTests.memberRequest(harness, memberId: memberId)
            var member = ServiceHarness.memberTransaction(of: purchaser, id: memberId)
            member.revocationType = .assignmentRevoke
            member.revocationDate = harness.store.now
            for type in [NotificationTypeV2.refund, .revoke] {
                let revoked = try await harness.deliverSigned(type, transaction: member)
                #expect(revoked.view["state"]?.stringValue == "processed")
                #expect(revoked.handlerOutput("offer-outcomes") == "0 decision outcome(s) recorded (assignment_revoked)")
            }
            let memberRecord = try await harness.consumption(memberId)
            #expect(memberRecord["outcome"] == nil)
            #expect(memberRecord["outcomes"]?.arrayValue?.isEmpty == true)
            let guardRow = try #require(try await harness.ruleStatistics("assigned-transaction", refunds: true))
            #expect(guardRow["granted"]?.integerValue == 0)
            #expect(guardRow["seatsRefunded"]?.integerValue == 0)
        }
    }

    @Test(arguments: TestBackend.selected)
    func unclaimSeatsWithoutDataIsRefusedAndNothingIsStored(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let info = UnclaimInfo(unclaimSeatIds: [UUID().uuidString.lowercased()])
            let refused = try await harness.deliverSigned(.unclaimSeats, unclaimInfo: info, withData: false)
            #expect(refused.status == 422)
            #expect(try await harness.request(.GET, "/v1/notifications/\(refused.notificationUUID)").status == 404)
            let metrics = String(decoding: try await harness.request(.GET, "/metrics").body, as: UTF8.self)
            #expect(metrics.contains(#"verdict_verification_failures_total{code="INVALID_APP_IDENTIFIER"} 1"#))

            // With `data` naming the app, the same notification is accepted and stored.
            let accepted = try await harness.deliverSigned(.unclaimSeats, unclaimInfo: info)
            #expect(accepted.status == 200)
            #expect(accepted.view["state"]?.stringValue == "processed")
            #expect(accepted.view[path: "content.payload.unclaimInfo.unclaimSeatIds"]?.arrayValue?.count == 1)
        }
    }
}
