import AppStoreServer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FactDocument {
    /// One of `customer.transactions`.
    public struct Transaction: Sendable, Hashable {
        public var productId: String?
        public var price: Amount?
        public var currency: String?
        public var offer: Offer?
        public var purchaseDate: Date?
        public var revocationDate: Date?
        public var revocationType: FactRevocationType?
        /// Seats the transaction covers (1 unless it is a multiseat purchase).
        public var seats: Int64?
        /// What the transaction charged.
        public var amount: Amount?
        public var ownership: InAppOwnershipType?
    }

    /// One of `customer.refunds`.
    public struct Refund: Sendable, Hashable {
        public var productId: String?
        public var price: Amount?
        public var date: Date
        public var revocationType: FactRevocationType
        /// The seats the refund took back (1 for a single-seat purchase).
        public var seats: Int64?
    }

    /// One of `customer.offersRedeemed`.
    public struct OfferRedemption: Sendable, Hashable {
        public var productId: String?
        public var offerType: OfferType
        public var offerIdentifier: String?
        public var offerDiscountType: OfferDiscountType?
        public var date: Date?
    }

    /// One of `customer.decisions`: an offer Verdict chose for this customer before.
    public struct PastDecision: Sendable, Hashable {
        public var offerId: String
        public var ruleId: String
        public var date: Date

        public init(offerId: String, ruleId: String, date: Date) {
            self.offerId = offerId
            self.ruleId = ruleId
            self.date = date
        }
    }
}

extension FactDocument.Transaction: FactRecord {
    public static let recordName = "Transaction"
    public static let fields: [FactField<Self>] = [
        .string("productId", \.productId, "The product."),
        .money("price", \.price, "Apple's price of the transaction; the average price per seat for a multiseat purchase "
            + "(what it charged is `amount`)."),
        .int("seats", \.seats, seatsDoc),
        .money("amount", \.amount, amountDoc),
        .enumeration("ownership", \.ownership, ownershipDoc),
        .string("currency", \.currency, "The ISO 4217 currency paid in."),
    ] + FactDocument.Offer.fields(\.offer) + [
        .timestamp("purchaseDate", \.purchaseDate, "When it was bought or renewed."),
        .timestamp("revocationDate", \.revocationDate, "When Apple refunded or revoked it, if it did.").optional,
        .enumeration("revocationType", \.revocationType,
                     "REFUND_FULL, REFUND_PRORATED, FAMILY_REVOKE or ASSIGNMENT_REVOKE (the purchaser took a member's "
                        + "subscription away; not a refund) if revoked; REFUND_SEATS when a seat refund took back some of "
                        + "its seats (the transaction stays valid, so it has no revocationDate).").optional,
    ]

    /// The meaning of `seats`, shared with `purchase.seats`.
    static let seatsDoc = "Seats the transaction still covers: Apple's `quantity` for a multiseat purchase (a seat "
        + "addition covers only the seats it added) less the seats a seat refund took back, 0 once it is revoked; 1 for "
        + "any other purchase."
    /// The meaning of `amount`, shared with `purchase.amount`.
    static let amountDoc = "What the transaction charged: the sum of its price tiers (price × seats per tier) for a "
        + "multiseat purchase, else `price`. A member's copy (ASSIGNED) repeats the purchaser's tiers: not a charge to "
        + "the member. Left out when Apple's tiers are incomplete."
    /// The meaning of `ownership`, shared with `purchase.ownership`.
    static let ownershipDoc = "PURCHASED, FAMILY_SHARED, or ASSIGNED (a group member's copy of the purchaser's "
        + "transaction); PURCHASED when Apple gives none."
}

extension FactDocument.Refund: FactRecord {
    public static let recordName = "Refund"
    public static let fields: [FactField<Self>] = [
        .string("productId", \.productId, "The product refunded."),
        .money("price", \.price, "Apple's price of the refunded transaction (per seat for a multiseat purchase)."),
        .timestamp("date", \.date, "When the refund happened: Apple's revocationDate; for a seat refund, which Apple gives "
            + "no date, when Apple signed the transaction showing the revoked seats (at or after the refund)."),
        .enumeration("revocationType", \.revocationType, "REFUND_FULL, REFUND_PRORATED, or REFUND_SEATS: some of a "
            + "multiseat purchase's seats were refunded, the rest stay valid."),
        .int("seats", \.seats, "The seats the refund took back: all of the transaction's for a full or prorated refund, "
            + "the revoked ones for a seat refund; 1 for a single-seat purchase."),
    ]
}

extension FactDocument.OfferRedemption: FactRecord {
    public static let recordName = "OfferRedemption"
    public static let fields: [FactField<Self>] = [
        .string("productId", \.productId, "The product the offer applied to."),
        .enumeration("offerType", \.offerType, "INTRODUCTORY, PROMOTIONAL, OFFER_CODE, WIN_BACK or RETENTION (an offer Apple chose on the cancel page)."),
        .string("offerIdentifier", \.offerIdentifier, "The offer's identifier (none for introductory offers).").optional,
        .enumeration("offerDiscountType", \.offerDiscountType,
                     "FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT or ONE_TIME.").optional,
        .timestamp("date", \.date, "When the offer was redeemed."),
    ]
}

extension FactDocument.PastDecision: FactRecord {
    public static let recordName = "PastDecision"
    public static let fields: [FactField<Self>] = [
        .string("offerId", \.offerId, "The catalog offer Verdict chose."),
        .string("ruleId", \.ruleId, "The rule that chose it."),
        .timestamp("date", \.date, "When Verdict decided."),
    ]
}
