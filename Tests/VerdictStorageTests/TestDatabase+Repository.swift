import Foundation
import Testing
import VerdictTestSupport

@testable import VerdictStorage

/// Repositories on a test's fresh database.
extension TestDatabase {
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
}

extension TestDatabase {
    /// The two apps of the per-app storage suites.
    static let appA = "com.example.a"
    static let appB = "com.example.b"

    /// Runs `body` with one migrated database seen by a repository acting for app A, one acting
    /// for app B, and the repository opened without an app (which sees neither's rows). Afterwards,
    /// no row of any table says no app: an insert that forgets its app fails the test (on SQLite,
    /// the tables that gained the column keep a default of `''`; PostgreSQL has none).
    static func withApps(
        _ backend: TestBackend,
        _ body: (_ a: any VerdictRepository, _ b: any VerdictRepository, _ none: any VerdictRepository) async throws -> Void
    ) async throws {
        try await withRepository(backend) { repository, _ in
            try await body(repository.scoped(to: appA), repository.scoped(to: appB), repository)
            let unowned = try await rowsOfNoApp(repository, backend)
            #expect(unowned.isEmpty, "rows stored without their app: \(unowned)")
        }
    }

    /// How many rows of each table with an `app` column have an empty one (tables with none left out).
    static func rowsOfNoApp(_ repository: any VerdictRepository, _ backend: TestBackend) async throws -> [String: Int64] {
        let driver = try #require(repository as? SQLRepository).driver
        return try await driver.transaction(timeout: nil) { db in
            let tables = switch backend {
            case .sqlite:
                try await db.query("""
                    SELECT m.name AS name FROM sqlite_master m JOIN pragma_table_info(m.name) c
                    WHERE m.type = 'table' AND c.name = 'app' ORDER BY 1
                    """)
            case .postgres:
                try await db.query("""
                    SELECT table_name::text AS name FROM information_schema.columns
                    WHERE column_name = 'app' AND table_schema = current_schema() ORDER BY 1
                    """)
            }
            var counts: [String: Int64] = [:]
            for table in try tables.map({ try $0.string("name") }) {
                let count = try await db.query("SELECT count(*) AS n FROM \(table) WHERE app = ''").first?.int64("n") ?? 0
                if count > 0 { counts[table] = count }
            }
            #expect(!tables.isEmpty, "no table has an app column")
            return counts
        }
    }
}
