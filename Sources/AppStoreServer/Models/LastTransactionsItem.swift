/// The status and latest signed data of one subscription (Get All Subscription Statuses).
public struct LastTransactionsItem: Codable, Hashable, Sendable {
    public var status: SubscriptionStatus?
    public var originalTransactionId: String?
    /// JWS whose payload is a ``JWSTransactionDecodedPayload``.
    public var signedTransactionInfo: String?
    /// JWS whose payload is a ``JWSRenewalInfoDecodedPayload``.
    public var signedRenewalInfo: String?

    public init(
        status: SubscriptionStatus? = nil,
        originalTransactionId: String? = nil,
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil
    ) {
        self.status = status
        self.originalTransactionId = originalTransactionId
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
    }
}
