/// The response of Get Test Notification Status.
public struct CheckTestNotificationResponse: Codable, Hashable, Sendable {
    /// The test notification as sent: JWS whose payload is a ``ResponseBodyV2DecodedPayload``.
    public var signedPayload: String?
    public var sendAttempts: [SendAttemptItem]?

    public init(signedPayload: String? = nil, sendAttempts: [SendAttemptItem]? = nil) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}
