/// The facts an app backend reports about a purchase (delivery, consumption, sessions) for
/// refund decisions. Part of ``VerdictRepository``: every method is one database transaction.
///
/// Scoped to the repository's app: facts are keyed by app and transaction id.
public protocol TransactionFactStore: Sendable {
    /// Replaces what the app reported about a purchase.
    func setTransactionFacts(_ facts: TransactionFactsRecord) async throws
    /// What the app reported about the purchase `transactionId`, if anything.
    func transactionFacts(transactionId: String) async throws -> TransactionFactsRecord?
}
