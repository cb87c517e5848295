/// The refund flow's consumption requests: each decided request, its submission attempts to Apple,
/// Apple's outcomes, and per-rule statistics.
/// Part of ``VerdictRepository``: every method is one database transaction; times are UNIX milliseconds.
///
/// Scoped to the repository's app: requests are stored with it, at most one is pending or sent per
/// app and purchase, and every look-up, list and change reads and changes only this app's requests.
/// Attempts are reached through their request: they are recorded and read only for a request of
/// this app.
public protocol ConsumptionRequestStore: Sendable {
    /// Stores a decided request and, in the same transaction, enqueues `submission` when the
    /// record is pending. A notification decided before returns `.alreadyDecided`; a request for
    /// a purchase with a pending or sent one is added to that one's repeats (`.repeated`).
    func insertConsumptionRequest(_ record: ConsumptionRequestRecord, submission: NewJob?) async throws
        -> ConsumptionRequestInsertResult
    /// The request with `id`.
    func consumptionRequest(id: String) async throws -> ConsumptionRequestRecord?
    /// The requests for one purchase, newest first.
    func consumptionRequests(transactionId: String) async throws -> [ConsumptionRequestRecord]
    /// Requests of any purchase, newest first.
    func recentConsumptionRequests(limit: Int) async throws -> [ConsumptionRequestRecord]

    /// Records a submission attempt (when given) and moves a pending request to `state` in one
    /// transaction. Returns false (and changes nothing) when the request is no longer pending.
    @discardableResult
    func updateConsumptionSubmission(id: String, state: ConsumptionRequestRecord.State, attempt: ConsumptionAttemptRecord?,
                                     lastError: String?, at: Int64) async throws -> Bool
    /// Marks attempt `attempt` of a pending request as in flight from `at`, just before Apple is
    /// called; ``updateConsumptionSubmission(id:state:attempt:lastError:at:)`` clears the mark with the
    /// call's outcome. A mark still set when the request is taken up again means the process
    /// stopped during the call: Apple may have received the body. Returns false when the request is
    /// no longer pending.
    func markConsumptionAttemptInFlight(id: String, attempt: Int, at: Int64) async throws -> Bool
    /// When a previous call's outcome is unknown (its in-flight mark is still set), records that
    /// attempt as a `retry` whose message says Apple may have received it, clears the mark, and
    /// returns the attempt; nil when there is none.
    func resolveInterruptedConsumptionAttempt(id: String) async throws -> ConsumptionAttemptRecord?
    /// The submission attempts of a request, oldest first.
    func consumptionAttempts(requestId: String) async throws -> [ConsumptionAttemptRecord]

    /// Joins Apple's outcome (`REFUND`, `REFUND_DECLINED`, `REFUND_REVERSED`, `REFUND_SEATS`) to the newest request
    /// for `transactionId`; `detail` is a JSON object appended to its outcomes. The same
    /// notification is joined once. Returns whether a request changed.
    @discardableResult
    func recordConsumptionOutcome(transactionId: String, outcome: String, detail: String, notificationUUID: String,
                                  at: Int64) async throws -> Bool

    /// Per refund rule (or veto, or `default`): requests, what was sent, and Apple's outcomes.
    func refundRuleStatistics() async throws -> [RefundRuleStatistics]
}
