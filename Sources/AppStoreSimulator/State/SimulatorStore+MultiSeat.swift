import AppStoreServer
import Foundation

/// The seats of multiseat subscriptions in transactions and renewal info: `quantity` = seats,
/// `price` = average per seat (``SeatPricing/averagePrice(of:)``), `multiSeatInfo` with the seats
/// at each price. `revokedSeatQuantity` is written inside `multiSeatInfo` and
/// `additionalTransactionReason` at the top level of the transaction, where StoreKit's
/// `Transaction` has them.
extension SimulatorStore {
    /// Makes the new period's `payload` cover `record`'s renewal seats, and starts the period's
    /// transaction list with it. Throws, changing nothing, for an offer or a price override (a
    /// multiseat purchase is priced by its seat pricing alone). No-op for a single-seat subscription.
    func applySeats(to payload: inout JWSTransactionDecodedPayload, record: inout SubscriptionRecord,
                    offer: SimulatedOffer?, priceOverride: Int64?) throws {
        guard var seats = record.seats else { return }
        guard offer == nil, priceOverride == nil else {
            throw SimulatorError.invalidRequest("a multiseat subscription is priced by its seat pricing alone")
        }
        try setSeats(of: &payload, tiers: seats.renewalTiers, invitationManagement: seats.invitationManagement)
        seats.periodTransactionIds = [payload.transactionId!]
        record.seats = seats
    }

    /// Writes `tiers` into `payload`: `quantity` their seats, `price` their average per seat,
    /// `multiSeatInfo` the tiers (no seats revoked).
    func setSeats(of payload: inout JWSTransactionDecodedPayload, tiers: [MultiSeatPriceTier],
                  invitationManagement: InvitationManagement) throws {
        guard let average = SeatPricing.averagePrice(of: tiers) else {
            throw SimulatorError.invalidRequest("the seats' price overflows")
        }
        payload.quantity = tiers.reduce(0) { $0 + ($1.quantity ?? 0) }
        payload.price = average
        payload.multiSeatInfo = TransactionMultiSeatInfo(invitationManagement: invitationManagement, priceTiers: tiers)
    }

    /// The seats of `seats`' current period (every transaction's `quantity`) and how many of them
    /// seat refunds revoked.
    func periodSeats(_ seats: SeatState) -> (total: Int32, revoked: Int32) {
        seats.periodTransactionIds.reduce((0, 0)) { sum, id in
            let payload = transactions[id]?.payload
            return (sum.0 + (payload?.quantity ?? 0), sum.1 + (payload?.resolvedRevokedSeatQuantity ?? 0))
        }
    }

    /// The price tiers of `seats`' whole current period: every transaction's tiers, equal prices
    /// added together.
    func periodTiers(_ seats: SeatState) -> [MultiSeatPriceTier] {
        SeatPricing.merged(seats.periodTransactionIds.flatMap { transactions[$0]?.payload.multiSeatInfo?.priceTiers ?? [] })
    }

    /// The subscription whose seats `record` has: its own, or for a member's `ASSIGNED`
    /// subscription the group purchaser's.
    func seatOwner(of record: SubscriptionRecord) -> SubscriptionRecord? {
        if let purchaser = record.purchaserOriginalTransactionId { return subscriptions[purchaser] }
        return record.seats == nil ? nil : record
    }

    /// Adds the next renewal's seats to `info`: `renewalQuantity`, `renewalPrice` as the average per
    /// seat and `multiSeatInfo.renewalPriceTiers` — a member's renewal info repeats the group
    /// purchaser's. No-op for a single-seat subscription.
    func applySeatRenewal(to info: inout JWSRenewalInfoDecodedPayload, record: SubscriptionRecord) {
        guard let seats = seatOwner(of: record)?.seats else { return }
        let tiers = seats.renewalTiers
        info.renewalQuantity = seats.renewalSeats
        info.renewalPrice = SeatPricing.averagePrice(of: tiers)
        info.multiSeatInfo = RenewalMultiSeatInfo(renewalPriceTiers: tiers)
    }

    /// Whether revoking `transactionId` (already stored as revoked) leaves `record` with nothing
    /// valid in its current period, so the subscription is revoked: for a single-seat subscription
    /// when it is the latest transaction; for a multiseat one when every transaction of the period
    /// is revoked.
    func revokesCurrentPeriod(_ record: SubscriptionRecord, transactionId: String) -> Bool {
        guard let seats = record.seats else { return record.latestTransactionId == transactionId }
        return seats.periodTransactionIds.contains(transactionId)
            && seats.periodTransactionIds.allSatisfy { transactions[$0]?.payload.revocationDate != nil }
    }
}
