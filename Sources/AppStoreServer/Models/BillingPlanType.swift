/// How a subscription with a commitment is billed (also used for `renewalBillingPlanType`).
public struct BillingPlanType: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let billedUpfront = Self(rawValue: "BILLED_UPFRONT")
    public static let monthly = Self(rawValue: "MONTHLY")

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.billedUpfront, .monthly]
}
