/// Whether an auto-renewable subscription renews at the end of the period.
public struct AutoRenewStatus: AppleEnumeration {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Auto-renew is off: the subscription expires.
    public static let off = Self(rawValue: 0)
    /// Auto-renew is on.
    public static let on = Self(rawValue: 1)

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.off, .on]
}
