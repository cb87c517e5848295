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
        /// Seats of the current period (1 for a single-seat subscription).
        public var seats: Int64?
        /// What the current period was charged, all seats and all of its transactions.
        public var amount: Amount?
        /// Seats at the next renewal.
        public var renewalSeats: Int64?
        /// What the next renewal will charge, all seats.
        public var renewalAmount: Amount?
        public var ownership: InAppOwnershipType?
        public var billingPlan: BillingPlanType?
        /// The billing commitment of a monthly plan, nil without one.
        public var commitment: Commitment?
    }
}

extension FactDocument.Subscription: FactRecord {
    public static let recordName = "Subscription"
    public static let fields: [FactField<Self>] = [
        .string("originalTransactionId", \.originalTransactionId,
                "The subscription's original transaction id (holdout and split unit)."),
        .string("productId", \.productId, "The current product id."),
        .string("group", \.group, "The subscription group identifier."),
        .money("price", \.price, "Apple's price of the subscription's latest transaction, in the storefront currency. For "
            + "a multiseat purchase it is the average price per seat (a seat addition's covers only the seats it added): "
            + "`amount` is what the period cost."),
        .money("renewalPrice", \.renewalPrice, "The price of the next renewal; per seat (the average) for a multiseat "
            + "subscription, whose whole next charge is `renewalAmount`."),
        .int("seats", \.seats, "Seats of the current period: the seats its transactions cover, less the seats seat refunds "
            + "took back; 1 for a single-seat subscription. The period's transactions are the subscription's transactions "
            + "that end (`expiresDate`) when its latest one ends: a seat addition shares its period's end, a renewal starts a "
            + "new period. Members' copies (ASSIGNED) of a purchaser's transactions are left out, except on a member's own "
            + "subscription, whose seats are the group's."),
        .money("amount", \.amount, "What the current period was charged, all seats and all of its transactions (the sum of "
            + "each multiseat transaction's price tiers, price × seats per tier; `price` for a single seat). A seat refund does "
            + "not lower it (it lowers `seats` and adds to `customer.lifetimeRefunded`). On a member's own subscription "
            + "(ASSIGNED) it is what the purchaser was charged, not the member. Left out when Apple's tiers are incomplete."),
        .int("renewalSeats", \.renewalSeats, "Seats at the next renewal (Apple's `renewalQuantity`; a reduction applies at "
            + "the next renewal date, so `renewalSeats < seats` is a coming loss); `seats` when Apple gives none."),
        .money("renewalAmount", \.renewalAmount, "What the next renewal will charge, all seats: the sum of the renewal price "
            + "tiers for a multiseat subscription, else `renewalPrice`."),
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
        .int("paidPeriods", \.paidPeriods, "Billing periods paid (free trial periods excluded; a seat addition is "
            + "part of its period, not a period of its own)."),
        .enumeration("ownership", \.ownership, "Who holds the subscription, from its latest transaction: PURCHASED, "
            + "FAMILY_SHARED, or ASSIGNED (a member of a group whose purchaser bought seats; a member cannot manage the "
            + "subscription, so offers skip members unless the rule reads this fact). PURCHASED when Apple gives none."),
        .enumeration("billingPlan", \.billingPlan, "How the latest transaction is billed: MONTHLY (a monthly plan with a "
            + "commitment, see `commitment`) or BILLED_UPFRONT; BILLED_UPFRONT when Apple gives none."),
        .record("commitment", \.commitment, "The billing commitment of a monthly plan (e.g. 12 months paid monthly), from "
            + "the latest transaction; missing without one. A subscriber who turns auto-renew off in month 3 of 12 still "
            + "pays for 9 more months.").optional,
    ]
}
