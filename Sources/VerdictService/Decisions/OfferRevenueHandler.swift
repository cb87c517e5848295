import AppStoreServer
import Foundation
import Logging
import VerdictStorage

/// Credits the money a customer pays after an offer decision to that decision, so the console
/// compares net revenue per decided customer between treatment and holdout: a purchase or
/// renewal (its `price`, in its `currency`) counts for the customer's decisions in that currency
/// made before it, no longer than `window` before it (`VERDICT_REVENUE_WINDOW`); a refund takes
/// it back, a reversed refund credits it again. Each decision counts a transaction once, however
/// often it is notified.
struct OfferRevenueHandler: NotificationHandler {
    let repository: any OfferDecisionStore
    /// Milliseconds after a decision during which a purchase counts.
    let window: Int64
    let now: @Sendable () -> Date

    let name = "offer-revenue"
    let notificationTypes: Set<NotificationTypeV2> = [
        .subscribed, .didRenew, .offerRedeemed, .didChangeRenewalPref, .refund, .refundReversed,
    ]

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
        case .refund: return .refund(transactionId: transactionId)
        case .refundReversed: return .refundReversed(transactionId: transactionId)
        default:
            guard let originalTransactionId = transaction.originalTransactionId, let price = transaction.price, price > 0,
                  let currency = transaction.currency, let purchased = transaction.purchaseDate
            else { return nil }
            return .purchase(
                originalTransactionId: originalTransactionId, transactionId: transactionId,
                purchasedAt: purchased.appStoreMilliseconds, amount: price, currency: currency)
        }
    }
}
