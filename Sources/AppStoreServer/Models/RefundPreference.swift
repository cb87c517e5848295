/// The refund outcome the developer prefers (consumption request V2).
public struct RefundPreference: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let decline = Self(rawValue: "DECLINE")
    public static let grantFull = Self(rawValue: "GRANT_FULL")
    /// Prorated refund; see `consumptionPercentage`.
    public static let grantProrated = Self(rawValue: "GRANT_PRORATED")

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.decline, .grantFull, .grantProrated]
}
