/// The response of Get App Transaction Info.
public struct AppTransactionInfoResponse: Codable, Hashable, Sendable {
    /// JWS whose payload is an ``AppTransaction``.
    public var signedAppTransactionInfo: String?

    public init(signedAppTransactionInfo: String? = nil) {
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }
}
