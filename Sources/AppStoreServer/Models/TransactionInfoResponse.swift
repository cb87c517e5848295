/// The response of Get Transaction Info.
public struct TransactionInfoResponse: Codable, Hashable, Sendable {
    /// JWS whose payload is a ``JWSTransactionDecodedPayload``.
    public var signedTransactionInfo: String?

    public init(signedTransactionInfo: String? = nil) {
        self.signedTransactionInfo = signedTransactionInfo
    }
}
