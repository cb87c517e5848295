/// Money a customer paid or got back, credited to the offer decisions it follows (see
/// ``OfferDecisionStore/recordOfferRevenue(_:window:at:)``).
public enum OfferRevenueEvent: Sendable, Equatable {
    /// A purchase or renewal: `amount` milliunits of `currency`, bought at `purchasedAt`.
    case purchase(originalTransactionId: String, transactionId: String, purchasedAt: Int64, amount: Int64, currency: String)
    /// Apple refunded the transaction: what it credited is taken back.
    case refund(transactionId: String)
    /// Apple reversed the transaction's refund: what the refund took back is credited again.
    case refundReversed(transactionId: String)
}
