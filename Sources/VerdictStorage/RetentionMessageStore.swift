/// The review states of the retention messages uploaded to Apple, which decide whether a realtime
/// answer may use a message. Part of ``VerdictRepository``: every method is one transaction.
public protocol RetentionMessageStore: Sendable {
    /// Every state recorded, by message identifier.
    func retentionMessageStates() async throws -> [RetentionMessageState]
    /// Records `states` (replacing the earlier state of each identifier).
    func recordRetentionMessageStates(_ states: [RetentionMessageState]) async throws
    /// Forgets the messages deleted from Apple.
    func deleteRetentionMessageStates(messageIdentifiers: [String]) async throws
}
