/// The response of Request a Test Notification.
public struct SendTestNotificationResponse: Codable, Hashable, Sendable {
    /// The token to query Get Test Notification Status with.
    public var testNotificationToken: String?

    public init(testNotificationToken: String? = nil) {
        self.testNotificationToken = testNotificationToken
    }
}
