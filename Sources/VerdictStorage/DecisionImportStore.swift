/// Stored decisions loaded in bulk: many rows per statement, one transaction per call. For
/// benchmarks (`verdict bench replay` seeds its history with it) and for moving a history between
/// databases; the service itself stores each decision with ``OfferDecisionStore`` and
/// ``ConsumptionRequestStore``. Part of ``VerdictRepository``.
///
/// Rows are inserted as given: nothing is enqueued (no webhook, no submission to Apple) and no
/// cap is counted. A record whose id or notification is already stored is skipped.
public protocol DecisionImportStore: Sendable {
    /// Inserts `records` in one transaction (several multi-row statements).
    func importOfferDecisions(_ records: [OfferDecisionRecord]) async throws
    /// Inserts `records` in one transaction (several multi-row statements).
    func importConsumptionRequests(_ records: [ConsumptionRequestRecord]) async throws
}
