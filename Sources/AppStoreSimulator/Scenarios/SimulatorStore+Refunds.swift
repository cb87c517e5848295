import AppStoreServer
import Foundation

/// Refund scenarios: the customer's request (`CONSUMPTION_REQUEST`), Apple's decision (`REFUND`,
/// `REFUND_DECLINED`) and a reversal (`REFUND_REVERSED`).
extension SimulatorStore {
    /// The customer asks Apple for a refund of `transactionId`: `CONSUMPTION_REQUEST` carrying the
    /// transaction and `consumptionRequestReason`.
    public func requestRefund(transactionId: String, reason: ConsumptionRequestReason = .unintendedPurchase)
        async throws -> ScenarioResult
    {
        let transaction = try storedTransaction(transactionId)
        guard transaction.revocationDate == nil else {
            throw SimulatorError.invalidState("transaction \(transactionId) is already refunded")
        }
        refundRequests[transactionId] = SimulatedRefundRequest(
            transactionId: transactionId, reason: reason, requestDate: now, outcome: .pending)
        return try await publish(.consumptionRequest, transactionId: transactionId,
                                 subscription: subscriptionRecord(of: transaction),
                                 consumptionRequestReason: reason)
    }

    /// Apple grants a refund: `REFUND`. The transaction gets `revocationDate` (now),
    /// `revocationReason`, `revocationType` and `revocationPercentage` (milliunits; 100000 for a
    /// full refund, `percentage` for a prorated one). Refunding a subscription's latest
    /// transaction revokes the subscription (status 5).
    public func grantRefund(transactionId: String, reason: RevocationReason = .refundedForOtherReason,
                            type: RevocationType = .refundFull, percentage: Int32? = nil) async throws -> ScenarioResult
    {
        let transaction = try storedTransaction(transactionId)
        guard transaction.revocationDate == nil else {
            throw SimulatorError.invalidState("transaction \(transactionId) is already refunded")
        }
        let revokedPercentage: Int32 = type == .refundProrated ? (percentage ?? 50000) : (percentage ?? 100_000)
        guard (0...100_000).contains(revokedPercentage) else {
            throw SimulatorError.invalidRequest("percentage must be in 0…100000 milliunits")
        }
        let revocationDate = now
        try modifyTransaction(transactionId) {
            $0.revocationDate = revocationDate
            $0.revocationReason = reason
            $0.revocationType = type
            $0.revocationPercentage = revokedPercentage
        }
        refundRequests[transactionId]?.outcome = .granted
        var record = subscriptionRecord(of: transaction)
        if var subscription = record, subscription.latestTransactionId == transactionId {
            subscription.state = .revoked
            subscription.autoRenewStatus = .off
            subscription.expirationIntent = .other
            subscriptions[subscription.originalTransactionId] = subscription
            record = subscription
        }
        return try await publish(.refund, transactionId: transactionId, subscription: record)
    }

    /// Apple declines the refund request: `REFUND_DECLINED`.
    public func declineRefund(transactionId: String) async throws -> ScenarioResult {
        let transaction = try storedTransaction(transactionId)
        refundRequests[transactionId]?.outcome = .declined
        return try await publish(.refundDeclined, transactionId: transactionId,
                                 subscription: subscriptionRecord(of: transaction))
    }

    /// Apple reverses a granted refund (e.g. after a dispute): `REFUND_REVERSED`. The transaction
    /// loses its revocation fields and a revoked subscription is active again (or expired, when its
    /// period has ended).
    public func reverseRefund(transactionId: String) async throws -> ScenarioResult {
        let transaction = try storedTransaction(transactionId)
        guard transaction.revocationDate != nil else {
            throw SimulatorError.invalidState("transaction \(transactionId) is not refunded")
        }
        try modifyTransaction(transactionId) {
            $0.revocationDate = nil
            $0.revocationReason = nil
            $0.revocationType = nil
            $0.revocationPercentage = nil
        }
        refundRequests[transactionId]?.outcome = .reversed
        var record = subscriptionRecord(of: transaction)
        if var subscription = record, subscription.state == .revoked {
            subscription.state = subscription.expiresDate > now ? .active : .expired
            subscription.expirationIntent = subscription.state == .active ? nil : .other
            subscriptions[subscription.originalTransactionId] = subscription
            record = subscription
        }
        return try await publish(.refundReversed, transactionId: transactionId, subscription: record)
    }

    private func storedTransaction(_ id: String) throws -> JWSTransactionDecodedPayload {
        guard let payload = transactions[id]?.payload else { throw SimulatorError.unknownTransaction(id) }
        return payload
    }

    private func subscriptionRecord(of transaction: JWSTransactionDecodedPayload) -> SubscriptionRecord? {
        guard transaction.type == .autoRenewable, let original = transaction.originalTransactionId else { return nil }
        return subscriptions[original]
    }
}
