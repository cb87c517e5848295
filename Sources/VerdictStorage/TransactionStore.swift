/// The verified transactions and renewal info, each kept in its newest `signedDate` version.
/// Part of ``VerdictRepository``: every method is one database transaction; times are UNIX milliseconds.
///
/// Every method is scoped to the repository's app: rows are kept per app and id (the same
/// transaction id or original transaction id stored by two apps is two independent rows), and
/// reads see only this app's rows.
public protocol TransactionStore: Sendable {
    /// Stores a transaction unless a version with a newer-or-equal `signedDate` is stored.
    /// Returns true when this version became the stored one.
    @discardableResult
    func recordTransaction(_ transaction: TransactionRecord) async throws -> Bool

    /// Records a notification's transaction (as ``recordTransaction(_:)``) and renewal info (kept
    /// per `originalTransactionId`, likewise only when no newer-or-equal `signedDate` is stored),
    /// and creates its customer or fills in identifiers the stored one lacked (never erasing one),
    /// in one transaction — one statement on PostgreSQL. Any of the three parts may be absent.
    func recordNotificationState(_ state: NotificationState) async throws -> NotificationStateOutcome

    /// The stored transaction with `id` (its `transactionId`).
    func transaction(id: String) async throws -> TransactionRecord?
    /// Every stored transaction of one subscription / purchase chain, oldest purchase first.
    func transactions(originalTransactionId: String) async throws -> [TransactionRecord]
    /// Every stored transaction carrying `appAccountToken` (any product, any subscription).
    func transactions(appAccountToken: String) async throws -> [TransactionRecord]
    /// The stored renewal info of one subscription.
    func renewalInfo(originalTransactionId: String) async throws -> RenewalInfoRecord?
    /// Every stored transaction of the customer `originalTransactionId` belongs to, across products
    /// and subscription groups, oldest purchase first: its own chain, the chains of every customer
    /// record sharing its appAccountToken or appTransactionId, and transactions carrying its
    /// appAccountToken.
    func customerTransactions(originalTransactionId: String) async throws -> [TransactionRecord]
}
