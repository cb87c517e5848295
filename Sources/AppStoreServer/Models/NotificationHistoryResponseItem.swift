/// One notification of Get Notification History with its delivery attempts.
public struct NotificationHistoryResponseItem: Codable, Hashable, Sendable {
    /// The notification as sent: JWS whose payload is a ``ResponseBodyV2DecodedPayload``.
    public var signedPayload: String?
    public var sendAttempts: [SendAttemptItem]?

    public init(signedPayload: String? = nil, sendAttempts: [SendAttemptItem]? = nil) {
        self.signedPayload = signedPayload
        self.sendAttempts = sendAttempts
    }
}
