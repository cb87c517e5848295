import AppStoreServer

extension FactDocument {
    /// `customer`: the customer's history (``Transaction``, ``Refund``, ``OfferRedemption``,
    /// ``PastDecision``), lifetime money per currency and the app-provided attributes.
    public struct Customer: Sendable, Equatable {
        /// Newest first, bounded by the builder.
        public var transactions: [Transaction] = []
        public var refunds: [Refund] = []
        public var offersRedeemed: [OfferRedemption] = []
        public var decisions: [PastDecision] = []
        public var historyComplete: Bool = true
        /// Per ISO 4217 currency, never added across currencies.
        public var lifetimePurchased: [String: Amount] = [:]
        public var lifetimeRefunded: [String: Amount] = [:]
        /// A JSON object, already checked against the bundle's declaration.
        public var attributes: JSONValue = .object([:])
    }
}

extension FactDocument.Customer: FactRecord {
    public static let recordName = "Customer"
    public static let fields: [FactField<Self>] = [
        .records("transactions", \.transactions, "The customer's transactions, newest first (bounded by the service)."),
        .records("refunds", \.refunds, "Refunds the customer received."),
        .records("offersRedeemed", \.offersRedeemed, "Offers the customer redeemed."),
        .records("decisions", \.decisions, "Offers Verdict itself chose for this customer before."),
        .bool("historyComplete", \.historyComplete, "Whether the customer's whole App Store transaction history had been read "
            + "when deciding. False when a first decision could not wait longer for it (the App Store Server API "
            + "unavailable, refusing or slow) or without an In-App Purchase key: the lists and totals then hold only "
            + "what Verdict had stored."),
        lifetimeMoney("lifetimePurchased", \.lifetimePurchased, "Money the customer paid"),
        lifetimeMoney("lifetimeRefunded", \.lifetimeRefunded, "Money the customer was refunded"),
        attributesField,
    ]

    /// `customer.attributes`, typed by the rule file's `attributes:`.
    static let attributesField = FactField<Self>.attributes(
        "attributes", \.attributes, "App-provided attributes declared in the rule file (`attributes:`).")

    /// A per-currency money table, documented with how rules read it.
    private static func lifetimeMoney(
        _ name: String, _ value: @escaping @Sendable (Self) -> [String: FactDocument.Amount], _ what: String
    ) -> FactField<Self> {
        .moneyTable(name, value, what + ", per ISO 4217 currency (never added across currencies): "
            + "index it by currency, `customer.\(name)['USD']` or `customer.\(name)[purchase.currency]`. "
            + "A currency without an entry is an evaluation error (the rule is skipped), so test "
            + "`'USD' in customer.\(name) && …` first. Not supplied: no entries.")
    }
}
