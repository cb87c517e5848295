import AppStoreServer
import Foundation
import Hummingbird

/// The control API's multiseat scenarios; each answers like every scenario,
/// `{"notification":{…}, "transaction":{…}, "renewalInfo":{…}}`. A multiseat purchase itself is
/// `POST /simulator/scenarios/subscribe` with `"seats"`. Like every scenario, each acts for the
/// app named by `?bundleId=` (default: the first app).
///
/// - `POST /simulator/scenarios/add-seats` — `{"originalTransactionId", "seats" (added),
///   "notificationType"? ("DID_CHANGE_RENEWAL_PREF")}` → a seat-addition transaction,
///   `<notificationType>`/INCREASE_QUANTITY.
/// - `POST /simulator/scenarios/reduce-seats` — `{"originalTransactionId", "seats" (removed at the
///   next renewal), "notificationType"?}` → `<notificationType>`/DECREASE_QUANTITY.
/// - `POST /simulator/scenarios/refund-seats` — `{"transactionId", "seats", "reason"? (0|1)}` →
///   REFUND/SEATS (`revokedSeatQuantity`).
/// - `POST /simulator/scenarios/assign-member` — `{"purchaserOriginalTransactionId",
///   "appTransactionId"? (existing customer), "appAccountToken"?}` → the member's `ASSIGNED`
///   subscription, SUBSCRIBED/INITIAL_BUY (APPLE invitations).
/// - `POST /simulator/scenarios/revoke-member` — `{"memberOriginalTransactionId"}` → REVOKE
///   (`revocationType` ASSIGNMENT_REVOKE).
/// - `POST /simulator/scenarios/unclaim-seats` — `{"originalTransactionId", "seatIds":[UUID…],
///   "data"? ("app"|"subscription"|"none")}` → UNCLAIM_SEATS with `unclaimInfo` (DEVELOPER invitations).
extension ControlRoutes {
    func registerSeatScenarios(on router: Router<SimulatorRequestContext>) {
        scenario(router, "add-seats") { (store, body: ControlMessages.SeatChange) in
            try await store.addSeats(originalTransactionId: body.originalTransactionId, seats: body.seats,
                                     notificationType: body.notificationType ?? .didChangeRenewalPref)
        }
        scenario(router, "reduce-seats") { (store, body: ControlMessages.SeatChange) in
            try await store.reduceSeats(originalTransactionId: body.originalTransactionId, seats: body.seats,
                                        notificationType: body.notificationType ?? .didChangeRenewalPref)
        }
        scenario(router, "refund-seats") { (store, body: ControlMessages.RefundSeats) in
            try await store.refundSeats(transactionId: body.transactionId, seats: body.seats,
                                        reason: body.reason ?? .refundedForOtherReason)
        }
        scenario(router, "assign-member") { (store, body: ControlMessages.AssignMember) in
            try await store.assignMember(purchaserOriginalTransactionId: body.purchaserOriginalTransactionId,
                                         appTransactionId: body.appTransactionId, appAccountToken: body.appAccountToken)
        }
        scenario(router, "revoke-member") { (store, body: ControlMessages.RevokeMember) in
            try await store.revokeMember(memberOriginalTransactionId: body.memberOriginalTransactionId)
        }
        scenario(router, "unclaim-seats") { (store, body: ControlMessages.UnclaimSeats) in
            try await store.unclaimSeats(originalTransactionId: body.originalTransactionId, seatIds: body.seatIds,
                                         data: body.data ?? .app)
        }
    }
}
