/// Whether the customer has responded to a subscription price increase.
public struct PriceIncreaseStatus: AppleEnumeration {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The customer has not responded to a price increase that needs consent.
    public static let customerHasNotResponded = Self(rawValue: 0)
    /// The customer consented, or was notified of an increase that needed no consent.
    public static let customerConsentedOrWasNotifiedWithoutNeedingConsent = Self(rawValue: 1)

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.customerHasNotResponded, .customerConsentedOrWasNotifiedWithoutNeedingConsent]
}
