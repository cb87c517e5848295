/// Why the App Store refunded or revoked a transaction.
public struct RevocationReason: AppleEnumeration {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Refunded for another reason, such as an accidental purchase.
    public static let refundedForOtherReason = Self(rawValue: 0)
    /// Refunded because of an actual or perceived issue in the app.
    public static let refundedDueToIssue = Self(rawValue: 1)

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.refundedForOtherReason, .refundedDueToIssue]
}
