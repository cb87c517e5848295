/// The App Store Server Notifications received, each stored once with its processing state.
/// Part of ``VerdictRepository``: every method is one database transaction; times are UNIX milliseconds.
///
/// Every method is scoped to the repository's app: a notification is stored as its app's (its
/// processing job too) and read, listed and counted only by that app.
public protocol NotificationStore: Sendable {
    /// Stores a notification and enqueues its processing job in one transaction. A notification
    /// whose `notificationUUID` is already stored changes nothing and answers `.duplicate`. Apple's
    /// UUIDs are unique across apps, so this holds whichever app stored it: a UUID another app
    /// stored also answers `.duplicate`, without revealing or changing that app's notification.
    func insertNotification(_ notification: NewNotification, processingJob: NewJob) async throws -> NotificationInsertResult

    /// This app's stored notification with its processing state, attempts and result.
    func notification(uuid: String) async throws -> NotificationRecord?

    /// The notifications about one subscription, newest signed first, at most `limit`.
    func notifications(originalTransactionId: String, limit: Int) async throws -> [NotificationRecord]

    /// The newest `signedDate` of this app's notifications (its reconciliation starts from it).
    func newestNotificationSignedDate() async throws -> Int64?

    /// Number of this app's stored notifications (all states).
    func notificationCount() async throws -> Int
}
