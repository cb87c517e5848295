import Foundation
import Logging
import Testing

@testable import VerdictStorage

/// The backends every storage test runs against.
enum TestBackend: String, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// `VERDICT_TEST_POSTGRES_URL`: a server URL whose user may create databases.
    static var postgresServerURL: String? {
        ProcessInfo.processInfo.environment["VERDICT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"]?.lowercased() == "true" }

    /// SQLite always; PostgreSQL when configured, or on CI (where a missing URL must fail, never skip).
    static var selected: [TestBackend] {
        postgresServerURL != nil || isCI ? [.sqlite, .postgres] : [.sqlite]
    }
}

/// A fresh, empty database for one test: a temporary SQLite file, or a new PostgreSQL database
/// `verdict_test_<random>` created on the `VERDICT_TEST_POSTGRES_URL` server and dropped afterwards.
struct TestDatabase: Sendable {
    let backend: TestBackend
    /// The URL repositories open.
    let url: String
    private let cleanup: @Sendable () async -> Void

    static let logger: Logger = {
        var logger = Logger(label: "verdict.storage.tests")
        logger.logLevel = .warning
        return logger
    }()

    /// Runs `body` with a fresh database and removes it afterwards (also when `body` throws).
    static func with(_ backend: TestBackend, _ body: (TestDatabase) async throws -> Void) async throws {
        let database = try await make(backend)
        do {
            try await body(database)
        } catch {
            await database.cleanup()
            throw error
        }
        await database.cleanup()
    }

    /// Runs `body` with a migrated repository on a fresh database.
    static func withRepository(_ backend: TestBackend, _ body: (any VerdictRepository, TestDatabase) async throws -> Void) async throws {
        try await with(backend) { database in
            let repository = try await database.open()
            try await repository.migrate()
            do {
                try await body(repository, database)
            } catch {
                try? await repository.shutdown()
                throw error
            }
            try await repository.shutdown()
        }
    }

    /// Opens `count` more repositories, runs `body` with them and shuts them down (also on error).
    func withRepositories(_ count: Int, maximumConnections: Int = 4,
                          _ body: ([any VerdictRepository]) async throws -> Void) async throws {
        var repositories: [any VerdictRepository] = []
        do {
            for _ in 0..<count { repositories.append(try await open(maximumConnections: maximumConnections)) }
            try await body(repositories)
        } catch {
            for repository in repositories { try? await repository.shutdown() }
            throw error
        }
        for repository in repositories { try await repository.shutdown() }
    }

    /// Opens one more repository (its own connections) on this database. SQLite waits up to a
    /// minute for another connection's write lock (the service's default is 10 s): with the whole
    /// suite running at once on two cores, the holder of the lock can be kept off the CPU for
    /// longer than 10 s, and these tests check what is stored, not how fast.
    func open(maximumConnections: Int = 4, sqliteBusyTimeout: Duration = .seconds(60)) async throws -> any VerdictRepository {
        try await RepositoryFactory.open(
            databaseURL: try DatabaseURL(parsing: url),
            options: StorageOptions(postgresMaximumConnections: maximumConnections, sqliteBusyTimeout: sqliteBusyTimeout),
            logger: Self.logger)
    }

    private static func make(_ backend: TestBackend) async throws -> TestDatabase {
        let name = "verdict_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(String(name))
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return TestDatabase(backend: backend, url: "sqlite:" + directory.path + "/verdict.sqlite") {
                try? FileManager.default.removeItem(at: directory)
            }
        case .postgres:
            guard let serverURL = TestBackend.postgresServerURL else {
                throw TestSetupError(
                    "VERDICT_TEST_POSTGRES_URL is not set, and CI=true requires the PostgreSQL storage tests to run "
                        + "(source .ci/postgres.sh to start a throwaway server)")
            }
            let url = try await DatabaseAdministration.createDatabase(serverURL: serverURL, name: String(name), logger: logger)
            return TestDatabase(backend: backend, url: url) {
                try? await DatabaseAdministration.dropDatabase(serverURL: serverURL, name: String(name), logger: logger)
            }
        }
    }
}

struct TestSetupError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Builders for records with sensible defaults.
enum Fixture {
    static func notification(_ uuid: String, signedDate: Int64 = 1_000, otid: String? = "otid-1") -> NewNotification {
        NewNotification(
            notificationUUID: uuid, notificationType: "DID_RENEW", subtype: nil, environment: "Sandbox",
            bundleId: "com.example.app", originalTransactionId: otid, transactionId: "tx-1", signedDate: signedDate,
            receivedAt: signedDate + 5, source: .delivery, signedPayload: "eyJhbGciOiJFUzI1NiJ9.payload.sig",
            decodedJSON: #"{"notificationType":"DID_RENEW"}"#)
    }

    static func job(kind: String = "process-notification", runAt: Int64 = 0, deadline: Int64? = nil,
                    dedupeKey: String? = nil, payload: String = "{}") -> NewJob {
        NewJob(kind: kind, payload: payload, dedupeKey: dedupeKey, runAt: runAt, deadline: deadline, createdAt: runAt)
    }

    static func transaction(_ id: String, otid: String = "otid-1", signedDate: Int64, purchaseDate: Int64? = nil,
                            product: String = "monthly") -> TransactionRecord {
        TransactionRecord(transactionId: id, originalTransactionId: otid, productId: product, appAccountToken: nil,
                          environment: "Sandbox", purchaseDate: purchaseDate, revocationDate: nil,
                          signedDate: signedDate, decodedJSON: #"{"signedDate":\#(signedDate)}"#)
    }
}
