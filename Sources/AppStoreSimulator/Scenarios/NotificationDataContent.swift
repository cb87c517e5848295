/// What the `data` of a notification that needs no transaction holds.
public enum NotificationDataContent: String, Sendable, Hashable, Codable {
    /// No `data` member (the payload carries no app identity, so a verifier cannot check it).
    case none
    /// The app's identity: `bundleId`, `appAppleId`, `bundleVersion`, `environment`.
    case app
    /// The app's identity with the subscription's latest transaction, renewal info and status.
    case subscription
}
