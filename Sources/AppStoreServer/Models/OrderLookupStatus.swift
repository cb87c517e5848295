/// Whether an order id (from a customer's receipt e-mail) is valid.
public struct OrderLookupStatus: AppleEnumeration {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let valid = Self(rawValue: 0)
    public static let invalid = Self(rawValue: 1)

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.valid, .invalid]
}
