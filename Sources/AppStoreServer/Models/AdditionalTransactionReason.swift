/// Why a billing period of a multiseat subscription has more than one transaction
/// (`additionalTransactionReason`), on every transaction of such a period.
public struct AdditionalTransactionReason: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The purchaser added seats during the period: each seat-addition transaction covers only the
    /// seats it added, so the period's seats and charge are the sums over its transactions.
    public static let seatAddition = Self(rawValue: "SEAT_ADDITION")

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.seatAddition]
}
