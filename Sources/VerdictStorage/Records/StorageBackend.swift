/// The database behind a `VerdictRepository`.
public enum StorageBackend: String, Sendable, Codable {
    case sqlite
    case postgres
}

/// What `/readyz` needs to know about the database.
public struct StorageReadiness: Sendable, Equatable, Codable {
    public var backend: StorageBackend
    /// The highest migration applied to the database.
    public var appliedVersion: Int
    /// The highest migration this build knows.
    public var expectedVersion: Int
    public var isCurrent: Bool { appliedVersion == expectedVersion }

    public init(backend: StorageBackend, appliedVersion: Int, expectedVersion: Int) {
        self.backend = backend
        self.appliedVersion = appliedVersion
        self.expectedVersion = expectedVersion
    }
}
