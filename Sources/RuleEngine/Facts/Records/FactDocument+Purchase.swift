import AppStoreServer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FactDocument {
    /// `purchase`: the transaction a refund request (`CONSUMPTION_REQUEST`) is about.
    public struct Purchase: Sendable, Hashable {
        public var transactionId: String?
        public var originalTransactionId: String?
        public var productId: String?
        public var productType: ProductType?
        public var price: Amount?
        public var currency: String?
        public var purchaseDate: Date?
        /// Milliseconds from purchase to `now`.
        public var age: Int64?
        public var offer: Offer?
        /// Seats the transaction covers (1 unless it is a multiseat purchase).
        public var seats: Int64?
        /// What the transaction charged.
        public var amount: Amount?
        public var ownership: InAppOwnershipType?
    }
}

extension FactDocument.Purchase: FactRecord {
    public static let recordName = "Purchase"
    public static let fields: [FactField<Self>] = [
        .string("transactionId", \.transactionId, "The transaction id the consumption request is about."),
        .string("originalTransactionId", \.originalTransactionId, "Its original transaction id."),
        .string("productId", \.productId, "The product purchased."),
        .enumeration("productType", \.productType, "AUTO_RENEWABLE, NON_CONSUMABLE, CONSUMABLE or NON_RENEWING."),
        .money("price", \.price, "Apple's price of the transaction; the average price per seat for a multiseat purchase "
            + "(what it charged is `amount`)."),
        .int("seats", \.seats, FactDocument.Transaction.seatsDoc),
        .money("amount", \.amount, FactDocument.Transaction.amountDoc),
        .enumeration("ownership", \.ownership, FactDocument.Transaction.ownershipDoc),
        .string("currency", \.currency, "The ISO 4217 currency paid in."),
        .timestamp("purchaseDate", \.purchaseDate, "When it was bought."),
        .duration("age", milliseconds: \.age, "Time from purchase to `now`."),
    ] + FactDocument.Offer.fields(\.offer)
}
