/// The type of an in-app purchase as carried in a transaction's `type` field.
public struct ProductType: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let autoRenewable = Self(rawValue: "Auto-Renewable Subscription")
    public static let nonConsumable = Self(rawValue: "Non-Consumable")
    public static let consumable = Self(rawValue: "Consumable")
    public static let nonRenewable = Self(rawValue: "Non-Renewing Subscription")

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.autoRenewable, .nonConsumable, .consumable, .nonRenewable]
}
