/// What the engine asks about limits: how many offers Verdict already
/// granted — to this customer across all offers, or of this offer across all customers — in the
/// window ending at the decision's `now`. The service answers from its decision store (it can
/// prefetch the customer's counts with the facts); tests use `InMemoryLimits`.
///
/// Synchronous on purpose: a decision is pure and cheap (≥100k/s/core), so the counts must be at
/// hand when it runs, not fetched per rule.
public protocol LimitsPort: Sendable {
    /// How many offers were granted for `scope` in `[now - window, now]`.
    func grantedCount(_ scope: LimitScope, window: Int64, now: Int64) -> Int
}

/// Who a limit counts.
public enum LimitScope: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Offers granted to one customer (identified by the holdout/split unit, e.g. its
    /// originalTransactionId), any offer.
    case customer(String)
    /// Grants of one catalog offer, any customer.
    case offer(String)

    /// `customer <id>` or `offer <id>`.
    public var description: String {
        switch self {
        case .customer(let id): "customer \(id)"
        case .offer(let id): "offer \(id)"
        }
    }
}

/// A `LimitsPort` that answers nothing has been granted: for explaining a decision when no
/// counts are available.
public struct NoLimitsRecorded: LimitsPort {
    /// A port with no grants.
    public init() {}
    public func grantedCount(_ scope: LimitScope, window: Int64, now: Int64) -> Int { 0 }
}
