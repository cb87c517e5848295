/// The response of Look Up Order ID.
public struct OrderLookupResponse: Codable, Hashable, Sendable {
    public var status: OrderLookupStatus?
    /// The order's JWS transactions (``JWSTransactionDecodedPayload``).
    public var signedTransactions: [String]?

    public init(status: OrderLookupStatus? = nil, signedTransactions: [String]? = nil) {
        self.status = status
        self.signedTransactions = signedTransactions
    }
}
