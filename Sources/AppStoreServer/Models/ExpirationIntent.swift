/// The reason an auto-renewable subscription expired.
public struct ExpirationIntent: AppleEnumeration {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let customerCancelled = Self(rawValue: 1)
    public static let billingError = Self(rawValue: 2)
    public static let customerDidNotConsentToPriceIncrease = Self(rawValue: 3)
    /// The product was not available at renewal time.
    public static let productNotAvailable = Self(rawValue: 4)
    public static let other = Self(rawValue: 5)

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [
        .customerCancelled,
        .billingError,
        .customerDidNotConsentToPriceIncrease,
        .productNotAvailable,
        .other,
    ]
}
