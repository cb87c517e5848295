/// The life of a storage connection: which database it is, its schema, its health, and closing it.
/// Part of ``VerdictRepository``.
public protocol StorageLifecycle: Sendable {
    /// Which database this repository talks to.
    var backend: StorageBackend { get }

    /// Applies every pending versioned migration; returns the schema version afterwards.
    @discardableResult
    func migrate() async throws -> Int

    /// Pings the database and reports the applied and expected schema versions.
    func readiness() async throws -> StorageReadiness

    /// Closes connections. The repository is unusable afterwards.
    func shutdown() async throws
}
