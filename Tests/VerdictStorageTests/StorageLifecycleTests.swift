import Foundation
import Testing
import VerdictTestSupport

@testable import VerdictStorage

@Suite("Storage: lifecycle, URLs and errors")
struct StorageLifecycleTests {
    @Test("PostgreSQL storage tests are configured",
          .enabled(if: TestBackend.postgresServerURL != nil || TestBackend.isCI,
                   "VERDICT_TEST_POSTGRES_URL is not set: PostgreSQL storage tests skipped (source .ci/postgres.sh; with CI=true they fail instead)"))
    func postgresConfigured() throws {
        #expect(TestBackend.postgresServerURL != nil,
                "CI=true but VERDICT_TEST_POSTGRES_URL is not set: the PostgreSQL storage tests cannot run")
    }

    @Test("migrations are idempotent, concurrent-safe, and readiness reports them", arguments: TestBackend.selected)
    func migrations(_ backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { database in
            // The one that waits for the other's migration may wait long on a busy machine (every
            // migration runs in one transaction, fsynced at its end).
            let first = try await database.open(sqliteBusyTimeout: .seconds(60))
            let second = try await database.open(sqliteBusyTimeout: .seconds(60))
            do {
                try await Self.migrateConcurrently(first, second, backend: backend)
            } catch {
                // Shut down before reporting: an open SQLite connection must not reach its deinit.
                try? await first.shutdown()
                try? await second.shutdown()
                throw error
            }
            try await first.shutdown()
            try await second.shutdown()
        }
    }

    private static func migrateConcurrently(
        _ first: any VerdictRepository, _ second: any VerdictRepository, backend: TestBackend
    ) async throws {
        let before = try await first.readiness()
        #expect(before.appliedVersion == 0)
        #expect(!before.isCurrent)
        #expect(before.backend.rawValue == backend.rawValue)
        // Two "processes" migrating at once.
        async let a = first.migrate()
        async let b = second.migrate()
        let versions = try await [a, b]
        #expect(versions == [Migrations.latestVersion, Migrations.latestVersion])
        #expect(try await first.migrate() == Migrations.latestVersion)
        let after = try await second.readiness()
        #expect(after.appliedVersion == Migrations.latestVersion)
        #expect(after.isCurrent)
        #expect(try await first.notificationCount() == 0)
    }

    @Test("a shut-down repository answers unavailable", arguments: TestBackend.selected)
    func shutDown(_ backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { database in
            let repository = try await database.open()
            try await repository.migrate()
            try await repository.shutdown()
            await #expect(throws: StorageError.self) { try await repository.notificationCount() }
            do {
                _ = try await repository.readiness()
            } catch let error as StorageError {
                #expect(error.isUnavailable)
            }
        }
    }

    @Test("SQLite: WAL, synchronous=FULL, data survives close and reopen")
    func sqliteDurability() async throws {
        try await TestDatabase.with(.sqlite) { database in
            let repository = try await database.open()
            try await repository.migrate()
            let result = try await repository.insertNotification(Fixture.notification("n-durable"), processingJob: Fixture.job())
            #expect(try await repository.recordTransaction(Fixture.transaction("t-1", signedDate: 10)))
            let sqlite = try #require(repository as? SQLRepository)
            let pragmas = try await sqlite.driver.transaction(timeout: nil) { db in
                (try await db.query("PRAGMA journal_mode").first?.string("journal_mode"),
                 try await db.query("PRAGMA synchronous").first?.int64("synchronous"),
                 try await db.query("PRAGMA foreign_keys").first?.int64("foreign_keys"))
            }
            #expect(pragmas.0 == "wal")
            #expect(pragmas.1 == 2) // FULL
            #expect(pragmas.2 == 1)
            try await repository.shutdown()

            let reopened = try await database.open()
            #expect(try await reopened.readiness().isCurrent)
            #expect(try await reopened.migrate() == Migrations.latestVersion)
            let stored = try #require(try await reopened.notification(uuid: "n-durable"))
            #expect(stored.notification == Fixture.notification("n-durable"))
            guard case .inserted(let jobId) = result else { Issue.record("not inserted"); return }
            #expect(stored.jobId == jobId)
            #expect(try await reopened.transaction(id: "t-1")?.signedDate == 10)
            try await reopened.shutdown()
        }
    }

    @Test("SQLite: relative paths and in-memory URLs open")
    func sqliteURLs() async throws {
        let memory = try await RepositoryFactory.open(databaseURL: .sqliteMemory, logger: TestDatabase.logger)
        try await memory.migrate()
        #expect(memory.backend == .sqlite)
        #expect(try await memory.readiness().isCurrent)
        try await memory.shutdown()
        #expect(try DatabaseURL(parsing: "sqlite:data/verdict.sqlite") == .sqliteFile(path: "data/verdict.sqlite"))
        #expect(try DatabaseURL(parsing: "sqlite:///var/lib/verdict.sqlite") == .sqliteFile(path: "/var/lib/verdict.sqlite"))
        let missingDirectory = DatabaseURL.sqliteFile(path: "/nonexistent-\(UUID().uuidString)/verdict.sqlite")
        await #expect(throws: StorageError.self) {
            _ = try await RepositoryFactory.open(databaseURL: missingDirectory, logger: TestDatabase.logger)
        }
    }

    @Test("PostgreSQL URLs parse; the password never shows")
    func postgresURLParsing() throws {
        let url = try DatabaseURL(parsing: "postgresql://app:s%40cret@db.example:6543/verdict?sslmode=disable")
        guard case .postgres(let parts) = url else { Issue.record("not postgres"); return }
        #expect(parts.user == "app")
        #expect(parts.password == "s@cret")
        #expect(parts.host == "db.example")
        #expect(parts.port == 6543)
        #expect(parts.database == "verdict")
        #expect(parts.tls == .disable)
        #expect(!parts.description.contains("s@cret"))
        let defaults = try DatabaseURL(parsing: "postgres://app@localhost/")
        #expect(defaults == .postgres(.init(user: "app", password: nil, host: "localhost", port: 5432,
                                            database: "app", tls: .prefer)))
    }

    @Test("bad URLs throw invalidDatabaseURL without echoing the password", arguments: [
        "", "mysql://root:hunter2secret@localhost/db", "postgres://user:hunter2secret@host:notaport/db",
        "postgres://user:hunter2secret@host:70000/db", "postgres://user:hunter2secret@/db",
        "postgres://user:hunter2secret@host/db?sslmode=sometimes", "postgres://user:hunter2secret@host/db?pool=3",
        "sqlite:", "hunter2secret", "postgres://:hunter2secret@host/db",
    ])
    func badURLs(_ url: String) {
        do throws(StorageError) {
            _ = try DatabaseURL(parsing: url)
            Issue.record("parsed \(url.isEmpty ? "<empty>" : "a bad URL")")
        } catch {
            guard case .invalidDatabaseURL = error else {
                Issue.record("expected invalidDatabaseURL, got \(error)")
                return
            }
            #expect(!error.description.contains("hunter2secret"))
            #expect(!String(reflecting: error).contains("hunter2secret"))
        }
    }

    @Test("PostgreSQL on a closed port: unavailable, password not in the error")
    func postgresClosedPort() async throws {
        let port = try Self.closedPort()
        let url = try DatabaseURL(parsing: "postgres://verdict:hunter2secret@127.0.0.1:\(port)/verdict?sslmode=disable")
        let clock = ContinuousClock()
        let start = clock.now
        do {
            _ = try await RepositoryFactory.open(
                databaseURL: url, options: StorageOptions(connectTimeout: .seconds(3)), logger: TestDatabase.logger)
            Issue.record("connected to a closed port")
        } catch let error as StorageError {
            #expect(error.isUnavailable, "\(error)")
            #expect(!error.description.contains("hunter2secret"))
            #expect(!String(reflecting: error).contains("hunter2secret"))
        }
        #expect(clock.now - start < .seconds(10))
    }

    @Test("PostgreSQL: a missing database is unavailable, password not in the error", arguments: TestBackend.selected.filter { $0 == .postgres })
    func postgresMissingDatabase(_ backend: TestBackend) async throws {
        let server = try #require(TestBackend.postgresServerURL, "VERDICT_TEST_POSTGRES_URL is required")
        guard case .postgres(var parts) = try DatabaseURL(parsing: server) else { throw TestSetupError("not postgres") }
        parts.database = "verdict_missing_\(UInt32.random(in: 0...UInt32.max))"
        parts.password = "hunter2secret"
        do {
            _ = try await RepositoryFactory.open(databaseURL: .postgres(parts), logger: TestDatabase.logger)
            Issue.record("opened a missing database")
        } catch let error as StorageError {
            #expect(error.isUnavailable, "\(error)")
            #expect(!error.description.contains("hunter2secret"))
        }
    }

    /// A local TCP port with nothing listening (bound, then closed).
    static func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSetupError("socket failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw TestSetupError("bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
