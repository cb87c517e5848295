/// The kind of refund or revocation applied to a transaction.
public struct RevocationType: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let refundFull = Self(rawValue: "REFUND_FULL")
    /// Prorated refund; see `revocationPercentage`.
    public static let refundProrated = Self(rawValue: "REFUND_PRORATED")
    /// Access lost through Family Sharing.
    public static let familyRevoke = Self(rawValue: "FAMILY_REVOKE")
    /// The group purchaser took the subscription away from this member; not a refund.
    public static let assignmentRevoke = Self(rawValue: "ASSIGNMENT_REVOKE")

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.refundFull, .refundProrated, .familyRevoke, .assignmentRevoke]
}
