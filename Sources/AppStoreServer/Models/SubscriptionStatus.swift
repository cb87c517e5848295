/// The status of an auto-renewable subscription (`status`; Apple's `Status`).
public struct SubscriptionStatus: AppleEnumeration {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let active = Self(rawValue: 1)
    public static let expired = Self(rawValue: 2)
    /// In the billing retry period.
    public static let billingRetry = Self(rawValue: 3)
    /// In the billing grace period.
    public static let billingGracePeriod = Self(rawValue: 4)
    public static let revoked = Self(rawValue: 5)

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.active, .expired, .billingRetry, .billingGracePeriod, .revoked]
}
