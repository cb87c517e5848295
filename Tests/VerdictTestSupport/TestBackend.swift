import Foundation
import Testing

/// The databases every database test of the storage and service suites runs on: SQLite always;
/// PostgreSQL when `VERDICT_TEST_POSTGRES_URL` names a server, and on CI (`CI=true`), where a
/// missing URL fails the test (``TestDatabase/make(_:)``) instead of skipping it.
public enum TestBackend: String, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    public var testDescription: String { rawValue }

    /// `VERDICT_TEST_POSTGRES_URL`: a server URL whose user may create databases.
    public static var postgresServerURL: String? {
        ProcessInfo.processInfo.environment["VERDICT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether this is CI (`CI=true`), where nothing that needs a server may be skipped.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" }

    /// SQLite always; PostgreSQL when configured, or on CI (where a missing URL must fail, never skip).
    public static var selected: [TestBackend] {
        postgresServerURL != nil || isCI ? [.sqlite, .postgres] : [.sqlite]
    }
}
