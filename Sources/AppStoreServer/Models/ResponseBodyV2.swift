/// The body Apple POSTs to your notification endpoint: `{"signedPayload":"<JWS>"}`.
public struct ResponseBodyV2: Codable, Hashable, Sendable {
    /// The notification as a JWS whose payload is a ``ResponseBodyV2DecodedPayload``.
    public var signedPayload: String?

    public init(signedPayload: String? = nil) {
        self.signedPayload = signedPayload
    }
}
