/// The body the App Store posts to the developer's Get Retention Message endpoint (Retention
/// Messaging API): one signed payload to verify with
/// ``SignedDataVerifier/verifyRealtimeRequest(_:)``.
public struct RealtimeRequestBody: Codable, Hashable, Sendable {
    /// The compact JWS of a ``DecodedRealtimeRequestBody``, signed by the App Store.
    public var signedPayload: String

    public init(signedPayload: String) {
        self.signedPayload = signedPayload
    }
}
