/// Stored decisions, and the notifications, transactions and customers around them, loaded in
/// bulk: many rows per statement, one transaction per call. For benchmarks (`verdict bench
/// replay`, `verdict bench console` and `verdict bench realtime` seed their histories with it) and for moving a history
/// between databases; the service itself stores each one through the other stores. Part of
/// ``VerdictRepository``.
///
/// Rows are inserted as given: nothing is enqueued (no webhook, no submission to Apple, no
/// processing job: imported notifications are stored as processed) and no cap is counted. A
/// record whose key is already stored is skipped. The daily statistics count imported rows.
///
/// Every row is stored with the repository's app (``VerdictRepository/app``): a history is
/// imported into one app, and a key is "already stored" for that app only where the table is keyed
/// by app (transactions, customers, renewal info).
public protocol DecisionImportStore: Sendable {
    /// Inserts `records` in one transaction (several multi-row statements).
    func importOfferDecisions(_ records: [OfferDecisionRecord]) async throws
    /// Inserts `records` in one transaction (several multi-row statements).
    func importConsumptionRequests(_ records: [ConsumptionRequestRecord]) async throws
    /// Inserts `notifications` as processed, in one transaction.
    func importNotifications(_ notifications: [NewNotification]) async throws
    /// Inserts `transactions` in one transaction.
    func importTransactions(_ transactions: [TransactionRecord]) async throws
    /// Inserts `customers` in one transaction.
    func importCustomers(_ customers: [CustomerRecord]) async throws
    /// Inserts renewal info (one row per subscription) in one transaction.
    func importRenewalInfo(_ records: [RenewalInfoRecord]) async throws
    /// Refreshes PostgreSQL's planner statistics (`ANALYZE`) after a bulk import, as its
    /// autovacuum would a while later. SQLite, which the service never analyzes, is left alone.
    func refreshStatistics() async throws
}
