extension TransactionHistoryRequest {
    /// The sort order of the Get Transaction History query (`sort`, by recently modified date).
    public struct Order: AppleEnumeration {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let ascending = Self(rawValue: "ASCENDING")
        public static let descending = Self(rawValue: "DESCENDING")

        /// The documented values, in documentation order.
        public static let knownValues: [Self] = [.ascending, .descending]
    }
}
