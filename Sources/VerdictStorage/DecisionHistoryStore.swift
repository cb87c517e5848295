/// Stored decisions read in the order they were made, a page at a time: what a rule replay
/// re-decides. Part of ``VerdictRepository``; read-only, each page one statement (no transaction
/// held between pages, so a replay never blocks the service). Pages are ordered by
/// `(decidedAt, id)` and continue after a ``DecisionCursor``. Reads only the decisions of the
/// repository's app (``VerdictRepository/app``).
public protocol DecisionHistoryStore: Sendable {
    /// Offer decisions made in `period`, oldest first, after `cursor`, at most `limit`.
    func offerDecisions(decidedIn period: DecisionPeriod, after cursor: DecisionCursor?, limit: Int) async throws
        -> [OfferDecisionRecord]
    /// Consumption requests decided in `period`, oldest first, after `cursor`, at most `limit`.
    func consumptionRequests(decidedIn period: DecisionPeriod, after cursor: DecisionCursor?, limit: Int) async throws
        -> [ConsumptionRequestRecord]
    /// How many offer decisions and consumption requests were made in `period`.
    func decisionCounts(decidedIn period: DecisionPeriod) async throws -> (offers: Int, refunds: Int)
    /// The newest offer decisions matching `filter`, at most `limit`.
    func offerDecisions(matching filter: DecisionFilter, limit: Int) async throws -> [OfferDecisionRecord]
    /// The newest consumption requests matching `filter` (its offer is ignored), at most `limit`.
    func consumptionRequests(matching filter: DecisionFilter, limit: Int) async throws -> [ConsumptionRequestRecord]
}

/// What a list of decisions is narrowed to: a period, the deciding rule, the offer, the outcome
/// (`redeemed`/`retained`, or Apple's `REFUND`, `REFUND_DECLINED`, `REFUND_REVERSED`). Nil: any.
public struct DecisionFilter: Sendable, Hashable {
    public var period: DecisionPeriod
    public var ruleId: String?
    public var offerId: String?
    public var outcome: String?

    public init(period: DecisionPeriod = DecisionPeriod(), ruleId: String? = nil, offerId: String? = nil, outcome: String? = nil) {
        self.period = period
        self.ruleId = ruleId
        self.offerId = offerId
        self.outcome = outcome
    }
}

/// A half-open range of decision times (UNIX milliseconds): `since` included, `until` excluded;
/// nil ends are open.
public struct DecisionPeriod: Sendable, Hashable {
    public var since: Int64?
    public var until: Int64?

    public init(since: Int64? = nil, until: Int64? = nil) {
        self.since = since
        self.until = until
    }
}

/// Where a page of stored decisions ended: the last row's `decidedAt` and id.
public struct DecisionCursor: Sendable, Hashable {
    public var decidedAt: Int64
    public var id: String

    public init(decidedAt: Int64, id: String) {
        self.decidedAt = decidedAt
        self.id = id
    }
}
