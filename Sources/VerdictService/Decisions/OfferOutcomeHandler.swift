import AppStoreServer
import Foundation
import Logging
import VerdictStorage

/// Closes the loop on offer decisions, from the notifications that show what the customer did
/// next (``CustomerAction``): a stay marks their open decisions `redeemed` when its transaction
/// or renewal info carries the offered `offerIdentifier`, `retained` otherwise — with how they
/// stayed (Apple's retention offer, another offer, a plan switch, a renewal, auto-renew back on,
/// a resubscription, added seats). Turning auto-renew off after a cancel-page (realtime) decision
/// marks it `cancelled`.
///
/// **Seat losses** are recorded on the subscription's open decisions without closing them: a seat
/// refund (`REFUND` / `SEATS`: `seats_refunded`), unclaimed seats (`UNCLAIM_SEATS`:
/// `seats_unclaimed`) and a member's assignment revoked (a transaction with `revocationType`
/// `ASSIGNMENT_REVOKE`, whatever notification carries it: `assignment_revoked`). None is a full
/// refund or a stay; a later stay replaces them.
///
/// Only inside the attribution window: a return later than `attributionWindow` after the offer
/// expired (or after a decision without an offer) is not credited to it.
struct OfferOutcomeHandler: NotificationHandler {
    let repository: any OfferDecisionStore
    /// Milliseconds after the offer's expiry during which a return counts.
    let attributionWindow: Int64
    let now: @Sendable () -> Date

    let name = "offer-outcomes"
    let notificationTypes: Set<NotificationTypeV2> = [
        .offerRedeemed, .subscribed, .didChangeRenewalStatus, .didChangeRenewalPref, .didRenew,
        .refund, .revoke, .unclaimSeats,
    ]
    /// Added seats arrive on a notification type Apple has not named.
    let subtypes: Set<Subtype> = [.increaseQuantity]

    func handle(_ notification: ProcessedNotification, logger: Logger) async throws -> String? {
        guard let originalTransactionId = notification.content.originalTransactionId,
              let action = Self.action(notification) else { return nil }
        let content = notification.content
        let stored = notification.record.notification
        let event = CustomerActionEvent(
            originalTransactionId: originalTransactionId, action: action.action,
            offerIdentifiers: [content.transaction?.offerIdentifier, content.renewalInfo?.offerIdentifier].compactMap { $0 },
            offerType: action.offerType?.rawValue, notificationUUID: stored.notificationUUID, actedAt: stored.signedDate)
        let changed = try await repository.recordCustomerAction(
            event, attributionWindow: attributionWindow, at: now().appStoreMilliseconds)
        return "\(changed) decision outcome(s) recorded (\(action.action.rawValue))"
    }

    /// What `notification` shows the customer did, with the `offerType` it came with; nil when it
    /// shows nothing about an offer decision.
    static func action(_ notification: ProcessedNotification) -> (action: CustomerAction, offerType: OfferType?)? {
        let event = notification.event
        let transaction = notification.content.transaction
        let renewalInfo = notification.content.renewalInfo
        // A change of what renews next shows on the renewal info; a new period on the transaction.
        let nextRenewalOffer = renewalInfo?.offerType ?? transaction?.offerType
        let transactionOffer = transaction?.offerType ?? renewalInfo?.offerType
        func stay(_ action: CustomerAction, _ offerType: OfferType?) -> (CustomerAction, OfferType?) {
            (offerType == .retentionOffer ? .appleOffer : action, offerType)
        }
        // The purchaser took the subscription away from a member: never a refund, whatever carries it.
        if transaction?.revocationType == .assignmentRevoke { return (.assignmentRevoked, nil) }
        if event.subtype == .increaseQuantity { return (.addedSeats, transactionOffer) }
        switch (event.type, event.subtype) {
        case (.refund, .seats): return (.seatsRefunded, nil)
        case (.unclaimSeats, _): return (.seatsUnclaimed, nil)
        case (.offerRedeemed, _): return stay(.otherOffer, nextRenewalOffer)
        case (.subscribed, .resubscribe): return stay(.resubscribed, transactionOffer)
        case (.didChangeRenewalStatus, .autoRenewEnabled): return stay(.reenabled, nextRenewalOffer)
        case (.didChangeRenewalStatus, .autoRenewDisabled): return (.cancelled, nil)
        case (.didChangeRenewalPref, .upgrade), (.didChangeRenewalPref, .downgrade): return stay(.switched, nextRenewalOffer)
        case (.didRenew, _): return stay(.renewed, transactionOffer)
        default: return nil
        }
    }
}
