extension TransactionHistoryRequest {
    /// A product-type filter of the Get Transaction History query (`productType`).
    public struct ProductType: AppleEnumeration {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let autoRenewable = Self(rawValue: "AUTO_RENEWABLE")
        public static let nonRenewable = Self(rawValue: "NON_RENEWABLE")
        public static let consumable = Self(rawValue: "CONSUMABLE")
        public static let nonConsumable = Self(rawValue: "NON_CONSUMABLE")

        /// The documented values, in documentation order.
        public static let knownValues: [Self] = [.autoRenewable, .nonRenewable, .consumable, .nonConsumable]
    }
}
