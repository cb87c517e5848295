import AppStoreServer
import Foundation

/// Seat changes of a multiseat subscription by its group purchaser: seat additions (a new
/// transaction in the period, at once), seat reductions (from the next renewal) and, for
/// developer-hosted invitations, unclaimed seats.
///
/// Apple has not said which notification type carries `INCREASE_QUANTITY` and
/// `DECREASE_QUANTITY`: the scenarios send `DID_CHANGE_RENEWAL_PREF` unless told another type.
extension SimulatorStore {
    /// The group purchaser adds `seats` seats to the current period: a new transaction for them —
    /// the period's `originalTransactionId` and `expiresDate`, its own `transactionId` and
    /// `webOrderLineItemId`, `transactionReason` `PURCHASE`, `quantity` = the added seats, their
    /// price tiers (the seats numbered after the period's, no proration) and
    /// `additionalTransactionReason` `SEAT_ADDITION`. Every earlier transaction of the period gets
    /// `SEAT_ADDITION` too (re-signed: the API serves them with it). The renewal seats rise at once.
    /// Sends `notificationType` (default `DID_CHANGE_RENEWAL_PREF`) / `INCREASE_QUANTITY` with the
    /// new transaction and the renewal info.
    public func addSeats(originalTransactionId: String, seats added: Int32,
                         notificationType: NotificationTypeV2 = .didChangeRenewalPref) async throws -> ScenarioResult {
        var record = try subscription(originalTransactionId)
        guard var seats = record.seats else { throw SimulatorError.invalidState("the subscription is not multiseat") }
        guard record.state == .active else { throw SimulatorError.invalidState("only an active subscription adds seats") }
        let current = periodSeats(seats).total
        guard added > 0, added <= SeatState.maximumSeats - max(current, seats.renewalSeats) else {
            throw SimulatorError.invalidRequest("seats must be positive, up to \(SeatState.maximumSeats) in all")
        }
        var payload = try periodTransaction(record)
        payload.transactionId = ids.transactionId()
        payload.webOrderLineItemId = ids.webOrderLineItemId()
        payload.purchaseDate = now
        payload.transactionReason = .purchase
        payload.additionalTransactionReason = .seatAddition
        try setSeats(of: &payload, tiers: seats.pricing.priceTiers(firstSeat: current + 1, count: added),
                     invitationManagement: seats.invitationManagement)
        for id in seats.periodTransactionIds where transactions[id]?.payload.additionalTransactionReason == nil {
            try modifyTransaction(id) { $0.additionalTransactionReason = .seatAddition }
        }
        insert(payload)
        let transactionId = payload.transactionId!
        seats.periodTransactionIds.append(transactionId)
        seats.renewalSeats += added
        record.seats = seats
        record.transactionIds.append(transactionId)
        subscriptions[originalTransactionId] = record
        return try await publish(notificationType, .increaseQuantity, transactionId: transactionId, subscription: record)
    }

    /// The group purchaser removes `seats` seats from the next renewal: the renewal info's
    /// `renewalQuantity` (and tiers) drop now, the period keeps its seats, and the next renewal
    /// charges the rest. At least one seat must remain. Sends `notificationType` (default
    /// `DID_CHANGE_RENEWAL_PREF`) / `DECREASE_QUANTITY` with the latest transaction and the renewal info.
    public func reduceSeats(originalTransactionId: String, seats removed: Int32,
                            notificationType: NotificationTypeV2 = .didChangeRenewalPref) async throws -> ScenarioResult {
        var record = try subscription(originalTransactionId)
        guard var seats = record.seats else { throw SimulatorError.invalidState("the subscription is not multiseat") }
        guard record.state == .active else { throw SimulatorError.invalidState("only an active subscription reduces seats") }
        guard removed > 0, removed < seats.renewalSeats else {
            throw SimulatorError.invalidRequest("seats must be positive and leave at least one of \(seats.renewalSeats)")
        }
        seats.renewalSeats -= removed
        record.seats = seats
        subscriptions[originalTransactionId] = record
        return try await publish(notificationType, .decreaseQuantity, transactionId: record.latestTransactionId,
                                 subscription: record)
    }

    /// Seats of a group with developer-hosted invitations (`DEVELOPER`) were unclaimed:
    /// `UNCLAIM_SEATS` with `unclaimInfo.unclaimSeatIds` = `seatIds` (UUID strings, sent as given).
    /// `data` says what the notification's `data` holds: the app's identity only (default, so it
    /// verifies), also the purchaser's latest transaction and renewal info, or no `data` at all.
    public func unclaimSeats(originalTransactionId: String, seatIds: [String],
                             data: NotificationDataContent = .app) async throws -> ScenarioResult {
        let record = try subscription(originalTransactionId)
        guard let seats = record.seats, seats.invitationManagement == .developer else {
            throw SimulatorError.invalidState("seats are unclaimed only in a group with DEVELOPER invitations")
        }
        guard !seatIds.isEmpty, seatIds.count <= periodSeats(seats).total,
              seatIds.allSatisfy({ UUID(uuidString: $0) != nil }), Set(seatIds).count == seatIds.count
        else {
            throw SimulatorError.invalidRequest("seatIds must be distinct UUIDs, at most one per seat")
        }
        let withSubscription = data == .subscription
        return try await publish(.unclaimSeats, transactionId: withSubscription ? record.latestTransactionId : nil,
                                 subscription: withSubscription ? record : nil, withData: data != .none,
                                 unclaimInfo: UnclaimInfo(unclaimSeatIds: seatIds))
    }

    /// The latest transaction of `record`'s current period, without revocation or offer fields:
    /// what a new transaction in the same period starts from.
    private func periodTransaction(_ record: SubscriptionRecord) throws -> JWSTransactionDecodedPayload {
        guard var payload = transactions[record.latestTransactionId]?.payload else {
            throw SimulatorError.unknownTransaction(record.latestTransactionId)
        }
        payload.revocationDate = nil
        payload.revocationReason = nil
        payload.revocationType = nil
        payload.revocationPercentage = nil
        payload.revokedSeatQuantity = nil
        payload.isUpgraded = nil
        payload.offerType = nil
        payload.offerIdentifier = nil
        payload.offerDiscountType = nil
        payload.offerPeriod = nil
        return payload
    }
}
