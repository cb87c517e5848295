import AppStoreServer
import Foundation
import Logging
import VerdictStorage

/// Credits the money a customer pays after an offer decision to that decision, so the console
/// compares net revenue per decided customer between treatment and holdout: a purchase or
/// renewal (what it charged, in its `currency`: `price`, or a multiseat purchase's sum over its
/// price tiers) counts for the customer's decisions in that currency made before it, no longer
/// than `window` before it (`VERDICT_REVENUE_WINDOW`); a refund takes it back, a reversed refund
/// credits it again. Each decision counts a transaction once, however often it is notified.
///
/// A group member's `ASSIGNED` transaction charged the member nothing (it repeats the purchaser's
/// tiers): it credits nothing. Neither a seat refund (`REFUND` / `SEATS`: the transaction stays
/// valid for its other seats) nor a member's assignment revoked (`ASSIGNMENT_REVOKE`) is a full
/// refund: neither takes the purchase back.
struct OfferRevenueHandler: NotificationHandler {
    let repository: any OfferDecisionStore
    /// Milliseconds after a decision during which a purchase counts.
    let window: Int64
    let now: @Sendable () -> Date

    let name = "offer-revenue"
    let notificationTypes: Set<NotificationTypeV2> = [
        .subscribed, .didRenew, .offerRedeemed, .didChangeRenewalPref, .refund, .refundReversed,
    ]
    /// Added seats are a purchase, on a notification type Apple has not named.
    let subtypes: Set<Subtype> = [.increaseQuantity]

    func handle(_ notification: ProcessedNotification, logger: Logger) async throws -> String? {
        guard let event = Self.revenueEvent(notification) else { return nil }
        let changed = try await repository.recordOfferRevenue(
            event, window: window, at: now().appStoreMilliseconds)
        return changed == 0 ? nil : "revenue credited to \(changed) decision(s)"
    }

    /// What `notification` means for revenue, if anything.
    static func revenueEvent(_ notification: ProcessedNotification) -> OfferRevenueEvent? {
        guard let transaction = notification.content.transaction, let transactionId = transaction.transactionId else {
            return nil
        }
        switch notification.event.type {
        case .refund:
            guard notification.event.subtype != .seats, transaction.revocationType != .assignmentRevoke else { return nil }
            return .refund(transactionId: transactionId)
        case .refundReversed: return .refundReversed(transactionId: transactionId)
        default:
            guard transaction.inAppOwnershipType != .assigned,
                  let originalTransactionId = transaction.originalTransactionId, let price = transaction.chargedAmount, price > 0,
                  let currency = transaction.currency, let purchased = transaction.purchaseDate
            else { return nil }
            return .purchase(
                originalTransactionId: originalTransactionId, transactionId: transactionId,
                purchasedAt: purchased.appStoreMilliseconds, amount: price, currency: currency)
        }
    }
}
