import AppStoreServer
import Logging
import RuleEngine
import VerdictStorage

/// Reacts to stored notifications of some types (the decision flows register theirs). Runs inside
/// the notification's processing job, after the notification's transaction and renewal info were
/// recorded; must be idempotent (a crashed job runs again).
public protocol NotificationHandler: Sendable {
    /// A short name, used in the processing result.
    var name: String { get }
    /// The notification types handled.
    var notificationTypes: Set<NotificationTypeV2> { get }
    /// Subtypes handled whatever notification type carries them (Apple has not named the type of
    /// some, such as `INCREASE_QUANTITY` and `DECREASE_QUANTITY`); none by default.
    var subtypes: Set<Subtype> { get }
    /// Handles one notification; the returned text (JSON or plain) is kept in the result.
    func handle(_ notification: ProcessedNotification, logger: Logger) async throws -> String?
    /// Whether handling `notification` decides on the customer's history, so processing should
    /// wait for a first history sync (bounded) before calling ``handle(_:logger:)``.
    func decidesOnHistory(_ notification: ProcessedNotification) -> Bool
}

extension NotificationHandler {
    public func decidesOnHistory(_ notification: ProcessedNotification) -> Bool { false }
    public var subtypes: Set<Subtype> { [] }

    /// Whether this handler handles `event`: by its type, or by its subtype.
    func handles(_ event: FactDocument.Event) -> Bool {
        notificationTypes.contains(event.type) || event.subtype.map(subtypes.contains) == true
    }
}

/// What a handler gets: the stored record and its verified content, decoded once by the job.
public struct ProcessedNotification: Sendable {
    public var record: NotificationRecord
    public var content: StoredNotificationContent
    /// The content's transaction and renewal info with the JSON they were decoded from.
    public var decoded: DecodedPayloads

    /// The notification's type, subtype, environment and `signedDate` as Apple's values (storage
    /// keeps them as strings).
    public var event: FactDocument.Event { FactDocument.Event(record.notification) }
}
