/// The App Store Server Notifications received, each stored once with its processing state.
/// Part of ``VerdictRepository``: every method is one database transaction; times are UNIX milliseconds.
public protocol NotificationStore: Sendable {
    /// Stores a notification and enqueues its processing job in one transaction. A notification
    /// whose `notificationUUID` is already stored changes nothing and answers `.duplicate`.
    func insertNotification(_ notification: NewNotification, processingJob: NewJob) async throws -> NotificationInsertResult

    /// The stored notification with its processing state, attempts and result.
    func notification(uuid: String) async throws -> NotificationRecord?

    /// The notifications about one subscription, newest signed first, at most `limit`.
    func notifications(originalTransactionId: String, limit: Int) async throws -> [NotificationRecord]

    /// The newest `signedDate` of any stored notification (reconciliation starts from it).
    func newestNotificationSignedDate() async throws -> Int64?

    /// Number of stored notifications (all states).
    func notificationCount() async throws -> Int
}
