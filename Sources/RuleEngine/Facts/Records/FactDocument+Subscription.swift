import AppStoreServer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FactDocument {
    /// `subscription`: the subscription an offer decision is about.
    public struct Subscription: Sendable, Hashable {
        public var originalTransactionId: String
        public var productId: String?
        public var group: String?
        public var price: Amount?
        public var renewalPrice: Amount?
        public var currency: String?
        public var storefront: String?
        public var offer: Offer?
        public var autoRenewStatus: AutoRenewStatus?
        public var expirationIntent: ExpirationIntent?
        public var isInBillingRetry: Bool = false
        public var eligibleWinBackOfferIds: [String] = []
        public var recentSubscriptionStartDate: Date?
        /// Milliseconds subscribed without a gap, up to `now`.
        public var tenure: Int64?
        public var paidPeriods: Int64 = 0
    }
}

extension FactDocument.Subscription: FactRecord {
    public static let recordName = "Subscription"
    public static let fields: [FactField<Self>] = [
        .string("originalTransactionId", \.originalTransactionId,
                "The subscription's original transaction id (holdout and split unit)."),
        .string("productId", \.productId, "The current product id."),
        .string("group", \.group, "The subscription group identifier."),
        .money("price", \.price, "The price of the current period, in the storefront currency."),
        .money("renewalPrice", \.renewalPrice, "The price of the next renewal."),
        .string("currency", \.currency, "The ISO 4217 currency of the prices (USD, EUR, …)."),
        .string("storefront", \.storefront, "The App Store storefront country (ISO 3166-1 alpha-3, e.g. USA, NOR)."),
    ] + FactDocument.Offer.fields(\.offer) + [
        .enumeration("autoRenewStatus", \.autoRenewStatus, "Whether the subscription will renew: ON or OFF."),
        .enumeration("expirationIntent", \.expirationIntent,
                     "Why the subscription expired (expired subscriptions only).").optional,
        .bool("isInBillingRetry", \.isInBillingRetry, "Whether Apple is retrying a failed renewal charge."),
        .strings("eligibleWinBackOfferIds", \.eligibleWinBackOfferIds,
                 "Win-back offers Apple says the customer is eligible for, in Apple's order."),
        .timestamp("recentSubscriptionStartDate", \.recentSubscriptionStartDate,
                   "Start of the most recent continuous subscription period."),
        .duration("tenure", milliseconds: \.tenure, "Time subscribed without a gap, up to `now`."),
        .int("paidPeriods", \.paidPeriods, "Billing periods paid (free trial periods excluded)."),
    ]
}
