import Foundation
import Logging
import VerdictStorage

/// A fresh, empty database for one test, with a temporary folder of its own (for the test's
/// other files): a SQLite file in that folder, or a new PostgreSQL database
/// `verdict_test_<random>` on the `VERDICT_TEST_POSTGRES_URL` server. ``remove()`` drops the
/// database and the folder.
public struct TestDatabase: Sendable {
    public let backend: TestBackend
    /// The URL repositories (and `verdict serve` children) open.
    public let url: String
    /// The test's temporary folder, removed with the database.
    public let directory: URL
    private let drop: @Sendable () async -> Void

    /// The tests' logger: `VERDICT_TEST_LOG_LEVEL` (`debug`, `info`, …), else critical messages only.
    public static let logger: Logger = {
        var logger = Logger(label: "verdict.tests")
        logger.logLevel = ProcessInfo.processInfo.environment["VERDICT_TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        return logger
    }()

    /// Creates a database on `backend`. On PostgreSQL without `VERDICT_TEST_POSTGRES_URL` (which
    /// only ``TestBackend/selected`` asks for on CI) it throws, so CI fails instead of skipping.
    public static func make(_ backend: TestBackend) async throws -> TestDatabase {
        let name = "verdict_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(String(name))
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        switch backend {
        case .sqlite:
            return TestDatabase(backend: backend, url: "sqlite:" + directory.path + "/verdict.sqlite", directory: directory) {
                try? FileManager.default.removeItem(at: directory)
            }
        case .postgres:
            guard let server = TestBackend.postgresServerURL else {
                try? FileManager.default.removeItem(at: directory)
                throw TestSetupError(
                    "VERDICT_TEST_POSTGRES_URL is not set, and CI=true requires the PostgreSQL tests to run "
                        + "(source .ci/postgres.sh to start a throwaway server)")
            }
            let url: String
            do {
                url = try await DatabaseAdministration.createDatabase(serverURL: server, name: String(name), logger: logger)
            } catch {
                try? FileManager.default.removeItem(at: directory)
                throw error
            }
            return TestDatabase(backend: backend, url: url, directory: directory) {
                try? await DatabaseAdministration.dropDatabase(serverURL: server, name: String(name), logger: logger)
                try? FileManager.default.removeItem(at: directory)
            }
        }
    }

    /// Drops the database and removes the folder.
    public func remove() async { await drop() }

    /// Runs `body` with a fresh database and removes it afterwards (also when `body` throws).
    public static func with(_ backend: TestBackend, _ body: (TestDatabase) async throws -> Void) async throws {
        let database = try await make(backend)
        do {
            try await body(database)
        } catch {
            await database.remove()
            throw error
        }
        await database.remove()
    }
}
