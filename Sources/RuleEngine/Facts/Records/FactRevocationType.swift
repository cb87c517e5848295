import AppStoreServer

/// How a transaction was revoked, as the facts say it (`revocationType` of `customer.transactions[]`
/// and `customer.refunds[]`): Apple's `RevocationType` values, each under its own name, and
/// Verdict's `REFUND_SEATS`.
///
/// `REFUND_SEATS` is not Apple's: Apple marks a refund of some of a multiseat purchase's seats only
/// by the seats it took back (`revokedSeatQuantity`) on a transaction that stays valid (no
/// `revocationDate`). The facts give such a refund this value of its own, so that a rule reading
/// `REFUND_FULL` never counts a refund of two seats out of twelve as a refund of everything.
public struct FactRevocationType: FactEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Apple's value.
    public init(_ type: RevocationType) { self.init(rawValue: type.rawValue) }

    public static let refundFull = Self(RevocationType.refundFull)
    public static let refundProrated = Self(RevocationType.refundProrated)
    public static let familyRevoke = Self(RevocationType.familyRevoke)
    /// The group purchaser took the subscription away from a member; not a refund.
    public static let assignmentRevoke = Self(RevocationType.assignmentRevoke)
    /// A seat refund: some of a multiseat purchase's seats were refunded, the rest stay valid.
    public static let refundSeats = Self(rawValue: "REFUND_SEATS")

    /// Apple's documented values, in Apple's order, then ``refundSeats``.
    public static let knownValues: [Self] = RevocationType.knownValues.map(Self.init) + [.refundSeats]

    public static var ruleEnum: RuleEnum { .revocationType }

    /// Whether the revocation gave money back: a full, prorated or seat refund (not a family
    /// revocation, nor a purchaser taking a member's subscription away).
    public var isRefund: Bool { self == .refundFull || self == .refundProrated || self == .refundSeats }
}
