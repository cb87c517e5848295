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
        public var revocationType: RevocationType?
    }

    /// One of `customer.refunds`.
    public struct Refund: Sendable, Hashable {
        public var productId: String?
        public var price: Amount?
        public var date: Date
        public var revocationType: RevocationType
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
        .money("price", \.price, "The price paid."),
        .string("currency", \.currency, "The ISO 4217 currency paid in."),
    ] + FactDocument.Offer.fields(\.offer) + [
        .timestamp("purchaseDate", \.purchaseDate, "When it was bought or renewed."),
        .timestamp("revocationDate", \.revocationDate, "When Apple refunded or revoked it, if it did.").optional,
        .enumeration("revocationType", \.revocationType,
                     "REFUND_FULL, REFUND_PRORATED or FAMILY_REVOKE, if revoked.").optional,
    ]
}

extension FactDocument.Refund: FactRecord {
    public static let recordName = "Refund"
    public static let fields: [FactField<Self>] = [
        .string("productId", \.productId, "The product refunded."),
        .money("price", \.price, "The price of the refunded transaction."),
        .timestamp("date", \.date, "When the refund happened."),
        .enumeration("revocationType", \.revocationType, "REFUND_FULL or REFUND_PRORATED."),
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
