/// The consent ledger: whether customers agreed to share consumption data with Apple, every
/// answer kept. Part of ``VerdictRepository``: every method is one database transaction.
///
/// Scoped to the repository's app: each entry belongs to the app that recorded it, and a
/// customer's answers in one app (by token or by originalTransactionId) ignore another app's.
public protocol ConsentStore: Sendable {
    /// Appends an entry to the consent ledger (history is kept).
    func recordConsent(_ consent: ConsentRecord) async throws
    /// The entries recorded for any of `keys`, newest answer (`at`) first.
    func consents(keys: [ConsentKey], limit: Int) async throws -> [ConsentRecord]
}
