/// Whether a transaction is a customer purchase or an automatic renewal.
public struct TransactionReason: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let purchase = Self(rawValue: "PURCHASE")
    public static let renewal = Self(rawValue: "RENEWAL")

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.purchase, .renewal]
}
