/// The retention offer decisions, their caps, their outcomes (redeemed, retained) and per-rule
/// statistics. Part of ``VerdictRepository``: every method is one database transaction; times are
/// UNIX milliseconds.
public protocol OfferDecisionStore: Sendable {
    /// Stores a decision and, in the same transaction, enqueues `followUp` (e.g. its webhook
    /// delivery) — unless one of `caps` is already used up: each is counted and the decision stored
    /// atomically per cap (across processes), and a used-up cap stores nothing and answers
    /// `.capped` (decide again on fresh counts). A decision for a `notificationUUID` that already
    /// has one changes nothing and returns the stored one (a re-run job decides once).
    func insertOfferDecision(_ decision: OfferDecisionRecord, followUp: NewJob?, caps: [OfferCap]) async throws -> OfferDecisionInsert
    /// The decision with `id`.
    func offerDecision(id: String) async throws -> OfferDecisionRecord?
    /// A customer's decisions, newest first.
    func offerDecisions(originalTransactionId: String, limit: Int) async throws -> [OfferDecisionRecord]
    /// The customer's newest decision that made an offer (not held out) still unexpired at `now`.
    func pendingOffer(originalTransactionId: String, now: Int64) async throws -> OfferDecisionRecord?
    /// Offers granted (made, not held out) since `since`: to one customer, or of one offer.
    func grantedOffers(_ scope: OfferCap.Scope, since: Int64) async throws -> Int
    /// Marks the customer's open decisions (no outcome yet, decided before `at`, not decided on
    /// `notificationUUID` itself, and still inside their attribution window: the customer acted at
    /// `actedAt`, no later than `attributionWindow` after the offer's expiry — or after the
    /// decision, for one without an offer): those that made offer `offerIdentifier` become
    /// `redeemed`; the others become `retained` when `retained` is true (the customer stayed).
    /// Returns how many changed.
    func recordOfferOutcome(originalTransactionId: String, offerIdentifier: String?, retained: Bool,
                            notificationUUID: String, actedAt: Int64, attributionWindow: Int64, at: Int64) async throws -> Int
    /// Credits `event` to the offer decisions it follows, once per decision, transaction and kind
    /// (a repeated event changes nothing): a purchase to the customer's decisions in its currency
    /// made at most `window` milliseconds before it; a refund takes back what its transaction's
    /// purchase credited; a reversed refund credits it again. Returns how many decisions changed.
    func recordOfferRevenue(_ event: OfferRevenueEvent, window: Int64, at: Int64) async throws -> Int
    /// Per rule: decisions, offers made, held out, redeemed, and outcomes in treatment and holdout.
    func offerRuleStatistics() async throws -> [OfferRuleStatistics]
}
