/// A page of Get Refund History.
public struct RefundHistoryResponse: Codable, Hashable, Sendable {
    /// Up to 20 JWS refunded transactions (``JWSTransactionDecodedPayload``).
    public var signedTransactions: [String]?
    /// The token to request the next page with.
    public var revision: String?
    public var hasMore: Bool?

    public init(signedTransactions: [String]? = nil, revision: String? = nil, hasMore: Bool? = nil) {
        self.signedTransactions = signedTransactions
        self.revision = revision
        self.hasMore = hasMore
    }
}
