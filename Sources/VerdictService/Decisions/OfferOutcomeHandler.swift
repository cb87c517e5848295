import AppStoreServer
import Foundation
import Logging
import VerdictStorage

/// Closes the loop on offer decisions: a notification showing the customer stayed marks their
/// open decisions — `redeemed` when its transaction or renewal info carries the offered
/// `offerIdentifier` (OFFER_REDEEMED, a resubscription or auto-renew turned back on with the
/// offer), `retained` otherwise (held-out and no-offer decisions: the customer simply stayed).
/// Only inside the attribution window: a return later than `attributionWindow` after the offer
/// expired (or after a decision without an offer) is not credited to it.
struct OfferOutcomeHandler: NotificationHandler {
    let repository: any OfferDecisionStore
    /// Milliseconds after the offer's expiry during which a return counts.
    let attributionWindow: Int64
    let now: @Sendable () -> Date

    let name = "offer-outcomes"
    let notificationTypes: Set<NotificationTypeV2> = [.offerRedeemed, .subscribed, .didChangeRenewalStatus]

    func handle(_ notification: ProcessedNotification, logger: Logger) async throws -> String? {
        let stored = notification.record.notification
        let event = notification.event
        let stayed = event.type == .offerRedeemed
            || (event.type == .subscribed && event.subtype == .resubscribe)
            || (event.type == .didChangeRenewalStatus && event.subtype == .autoRenewEnabled)
        guard stayed else { return nil }
        guard let originalTransactionId = notification.content.originalTransactionId else { return nil }
        let content = notification.content
        let offerIdentifier = content.transaction?.offerIdentifier ?? content.renewalInfo?.offerIdentifier
        let changed = try await repository.recordOfferOutcome(
            originalTransactionId: originalTransactionId, offerIdentifier: offerIdentifier, retained: true,
            notificationUUID: stored.notificationUUID, actedAt: stored.signedDate, attributionWindow: attributionWindow,
            at: now().appStoreMilliseconds)
        return "\(changed) decision outcome(s) recorded"
    }
}
