import AppStoreServer
import Foundation

/// Seat refunds of a multiseat subscription: Apple refunds some of a transaction's seats and the
/// transaction stays valid for the rest (`REFUND` / `SEATS`).
extension SimulatorStore {
    /// Apple refunds `seats` seats of the group purchaser's transaction `transactionId`: its
    /// `multiSeatInfo.revokedSeatQuantity` grows by `seats` (it counts every seat refunded so far),
    /// and once every seat of the transaction is refunded it also gets `revocationDate` (now) and
    /// `revocationReason`. A transaction of the current period lowers the renewal seats to the
    /// period's seats still valid; when no transaction of the period is left valid the subscription
    /// is revoked (status 5). A pending refund request for the transaction is granted. Sends
    /// `REFUND` / `SEATS` with the transaction and the renewal info.
    public func refundSeats(transactionId: String, seats refunded: Int32,
                            reason: RevocationReason = .refundedForOtherReason) async throws -> ScenarioResult {
        let transaction = try storedTransaction(transactionId)
        guard transaction.isMultiSeat, transaction.inAppOwnershipType != .assigned else {
            throw SimulatorError.invalidState("only a group purchaser's multiseat transaction has seats to refund")
        }
        guard transaction.revocationDate == nil else {
            throw SimulatorError.invalidState("transaction \(transactionId) is already refunded")
        }
        let alreadyRevoked = transaction.resolvedRevokedSeatQuantity ?? 0
        let quantity = transaction.quantity ?? 0
        guard refunded > 0, refunded <= quantity - alreadyRevoked else {
            throw SimulatorError.invalidRequest("seats must be in 1…\(quantity - alreadyRevoked), the seats not yet refunded")
        }
        let revoked = alreadyRevoked + refunded
        let now = now
        try modifyTransaction(transactionId) {
            $0.multiSeatInfo?.revokedSeatQuantity = revoked
            if revoked == quantity {
                $0.revocationDate = now
                $0.revocationReason = reason
            }
        }
        refundRequests[transactionId]?.outcome = .granted
        var record = transaction.originalTransactionId.flatMap { subscriptions[$0] }
        if var subscription = record, var seats = subscription.seats,
           seats.periodTransactionIds.contains(transactionId) {
            let period = periodSeats(seats)
            if period.total > period.revoked {
                seats.renewalSeats = min(seats.renewalSeats, period.total - period.revoked)
                subscription.seats = seats
            }
            if revokesCurrentPeriod(subscription, transactionId: transactionId) {
                subscription.revoke()
            }
            subscriptions[subscription.originalTransactionId] = subscription
            record = subscription
        }
        return try await publish(.refund, .seats, transactionId: transactionId, subscription: record)
    }
}
