/// Whether the customer bought the product, has it through Family Sharing, or was given it by an
/// organization or group.
public struct InAppOwnershipType: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let familyShared = Self(rawValue: "FAMILY_SHARED")
    public static let purchased = Self(rawValue: "PURCHASED")
    /// Access granted by an organization or group that bought seats. Members of an Apple-hosted
    /// group get their own transactions with this value, repeating the purchaser's seats and price
    /// tiers: those amounts are the purchaser's, not a charge to the member.
    public static let assigned = Self(rawValue: "ASSIGNED")

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.familyShared, .purchased, .assigned]
}
