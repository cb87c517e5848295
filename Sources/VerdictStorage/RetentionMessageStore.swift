/// The review states of the retention messages and images uploaded to Apple, which decide whether
/// a realtime answer may use a message. Part of ``VerdictRepository``: every method is one transaction.
///
/// Scoped to the repository's app: states are keyed by app and message identifier, and each app
/// sees and deletes only its own.
public protocol RetentionMessageStore: Sendable {
    /// Every state recorded: the messages by message id and locale, then the images.
    func retentionMessageStates() async throws -> [RetentionMessageState]
    /// Records `states` (replacing the earlier state of each identifier).
    func recordRetentionMessageStates(_ states: [RetentionMessageState]) async throws
    /// Forgets the messages (or images) deleted from Apple.
    func deleteRetentionMessageStates(messageIdentifiers: [String]) async throws
}
