/// The retention offer decisions, their caps, their outcomes (redeemed, retained), what the
/// customers did afterwards, and per-rule statistics. Part of ``VerdictRepository``: every method
/// is one database transaction; times are UNIX milliseconds.
///
/// Acts for the repository's app (``VerdictRepository/app``): decisions and revenue ledger rows
/// are stored with it, and lookups, caps, outcomes, revenue and statistics see only its
/// decisions — a cap counts one app's grants, and two apps' caps never wait on each other.
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
    /// The customer's newest decision that made an offer (not held out, not answered late) still
    /// unexpired at `now`.
    func pendingOffer(originalTransactionId: String, now: Int64) async throws -> OfferDecisionRecord?
    /// Marks the realtime decision `decisionId` as answered late: its answer reached Apple after
    /// Apple's deadline, so the App Store showed its fallback. The decision then no longer counts
    /// against caps and is no longer pending, and its follow-up job (the webhook event enqueued
    /// with it), found by its dedupe key `followUpKey`, is withdrawn while still queued. Returns
    /// whether the decision changed (false: unknown, or already marked).
    func markAnsweredLate(decisionId: String, withdrawing followUpKey: String?) async throws -> Bool
    /// Offers granted (made, not held out, not answered late) since `since`: to one customer, or of
    /// one offer, by this app.
    func grantedOffers(_ scope: OfferCap.Scope, since: Int64) async throws -> Int
    /// Records what the customer did on the customer's open decisions (no outcome yet, decided
    /// before `at`, not decided on the event's own notification, and still inside their
    /// attribution window: the customer acted no later than `attributionWindow` after the offer's
    /// expiry — or after the decision, for one without an offer). A stay closes them: those that
    /// made one of the event's offers become `redeemed` (action ``CustomerAction/redeemed``), the
    /// others `retained` with the event's action. An action that is not a stay
    /// (``CustomerAction/stayed``) is recorded on open decisions without an action yet and leaves
    /// them open; ``CustomerAction/cancelled`` marks only realtime decisions (trigger `REALTIME_REQUEST`).
    /// The event's `offerType` is kept with the action. Returns how many changed.
    func recordCustomerAction(_ event: CustomerActionEvent, attributionWindow: Int64, at: Int64) async throws -> Int
    /// Credits `event` to the offer decisions it follows, once per decision, transaction and kind
    /// (a repeated event changes nothing): a purchase to the customer's decisions in its currency
    /// made at most `window` milliseconds before it; a refund takes back what its transaction's
    /// purchase credited; a reversed refund credits it again. Returns how many decisions changed.
    func recordOfferRevenue(_ event: OfferRevenueEvent, window: Int64, at: Int64) async throws -> Int
    /// Per rule: decisions, offers made, held out, redeemed, and outcomes in treatment and holdout.
    func offerRuleStatistics() async throws -> [OfferRuleStatistics]
}
