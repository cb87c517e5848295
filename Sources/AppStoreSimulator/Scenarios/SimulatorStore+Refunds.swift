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
    /// transaction revokes the subscription (status 5) — for a multiseat subscription, refunding
    /// the last valid transaction of its current period.
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
        try setRevocation(transactionId, date: now, reason: reason, type: type, percentage: revokedPercentage)
        refundRequests[transactionId]?.outcome = .granted
        let record = updateSubscription(of: transaction, if: { revokesCurrentPeriod($0, transactionId: transactionId) }) {
            $0.revoke()
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
        try setRevocation(transactionId, date: nil, reason: nil, type: nil, percentage: nil)
        refundRequests[transactionId]?.outcome = .reversed
        let now = now
        let record = updateSubscription(of: transaction, if: { $0.state == .revoked }) {
            $0.state = $0.expiresDate > now ? .active : .expired
            $0.expirationIntent = $0.state == .active ? nil : .other
        }
        return try await publish(.refundReversed, transactionId: transactionId, subscription: record)
    }

    /// The stored transaction `id`, or `SimulatorError.unknownTransaction`.
    func storedTransaction(_ id: String) throws -> JWSTransactionDecodedPayload {
        guard let payload = transactions[id]?.payload else { throw SimulatorError.unknownTransaction(id) }
        return payload
    }

    /// Sets a transaction's revocation fields (all nil: no longer refunded).
    private func setRevocation(
        _ transactionId: String, date: Date?, reason: RevocationReason?, type: RevocationType?, percentage: Int32?
    ) throws {
        try modifyTransaction(transactionId) {
            $0.revocationDate = date
            $0.revocationReason = reason
            $0.revocationType = type
            $0.revocationPercentage = percentage
        }
    }

    /// The subscription of `transaction`, if any, after `change` stored when it `applies`.
    private func updateSubscription(
        of transaction: JWSTransactionDecodedPayload, if applies: (SubscriptionRecord) -> Bool,
        _ change: (inout SubscriptionRecord) -> Void
    ) -> SubscriptionRecord? {
        guard var subscription = subscriptionRecord(of: transaction) else { return nil }
        guard applies(subscription) else { return subscription }
        change(&subscription)
        subscriptions[subscription.originalTransactionId] = subscription
        return subscription
    }

    private func subscriptionRecord(of transaction: JWSTransactionDecodedPayload) -> SubscriptionRecord? {
        guard transaction.type == .autoRenewable, let original = transaction.originalTransactionId else { return nil }
        return subscriptions[original]
    }
}
