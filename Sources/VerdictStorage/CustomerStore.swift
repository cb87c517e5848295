/// The customers: one record per purchase chain with the identifiers that join chains, and how far
/// its transaction history was read from the App Store Server API.
/// Part of ``VerdictRepository``: every method is one database transaction; times are UNIX milliseconds.
///
/// Every method is scoped to the repository's app: customers are kept per app and original
/// transaction id, and reads see only this app's.
public protocol CustomerStore: Sendable {
    /// The customer record of the purchase chain `originalTransactionId`.
    func customer(originalTransactionId: String) async throws -> CustomerRecord?
    /// The customer records carrying `appAccountToken`, first seen first.
    func customers(appAccountToken: String) async throws -> [CustomerRecord]
    /// Records a Get Transaction History page read for a customer: the `revision` reached (kept
    /// when nil), and — when `complete`, the last page — `historySyncedAt = at`: the customer's whole
    /// history is stored (decisions wait for it, see `NotificationProcessor`).
    func recordHistorySync(originalTransactionId: String, revision: String?, complete: Bool, at: Int64) async throws
}
