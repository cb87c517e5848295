/// Whether the customer bought the product or has it through Family Sharing.
public struct InAppOwnershipType: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let familyShared = Self(rawValue: "FAMILY_SHARED")
    public static let purchased = Self(rawValue: "PURCHASED")

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.familyShared, .purchased]
}
