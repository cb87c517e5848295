import Foundation
import Logging

/// The one SQL implementation of `VerdictRepository`, over an `SQLDriver` (SQLite or PostgreSQL).
///
/// Every method runs in one driver transaction. Queries use `$n` placeholders and portable SQL
/// (`ON CONFLICT … DO NOTHING/UPDATE … RETURNING`, `CASE` instead of `LEAST`/`GREATEST`); the few
/// differences live in `SQLDialect`. Binds are never logged.
final class SQLRepository: VerdictRepository {
    let driver: any SQLDriver
    let logger: Logger
    /// Limit for ordinary transactions (PostgreSQL: includes waiting for a pooled connection).
    let operationTimeout: Duration?
    /// The app (bundle id) whose rows this repository reads and writes; `''` for a repository
    /// opened without one (storage tests, tools), which sees only rows of no app.
    let app: String

    init(driver: any SQLDriver, logger: Logger, operationTimeout: Duration?, app: String = "") {
        self.driver = driver
        self.logger = logger
        self.operationTimeout = operationTimeout
        self.app = app
    }

    func scoped(to app: String) -> any VerdictRepository {
        SQLRepository(driver: driver, logger: logger, operationTimeout: operationTimeout, app: app)
    }

    /// `app` as a bind value.
    var appValue: SQLValue { .text(app) }

    var backend: StorageBackend { driver.backend }
    var dialect: SQLDialect { driver.dialect }

    /// Runs `body` in one transaction with the operation timeout (a database span in a sampled trace).
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        let (driver, timeout) = (self.driver, operationTimeout)
        return try await DatabaseSpan.trace(driver.endpoint, transaction: true) { observe in
            try await driver.transaction(timeout: timeout) { try await body(observe($0)) }
        }
    }

    /// Runs `body` — exactly one statement — without `BEGIN`/`COMMIT` round trips, with the
    /// operation timeout. The statement is atomic by itself.
    func statement<T: Sendable>(_ body: @escaping @Sendable (any SQLExecutor) async throws -> T) async throws -> T {
        let (driver, timeout) = (self.driver, operationTimeout)
        return try await DatabaseSpan.trace(driver.endpoint, transaction: false) { observe in
            try await driver.autocommit(timeout: timeout) { try await body(observe($0)) }
        }
    }

    // MARK: Lifecycle

    @discardableResult
    func migrate() async throws -> Int {
        try await migrate(through: Migrations.latestVersion)
    }

    /// Applies the migrations up to `version` (upgrade tests load what an earlier release wrote at
    /// its version); rows from before apps are adopted only once the latest version is reached.
    @discardableResult
    func migrate(through version: Int) async throws -> Int {
        let dialect = self.dialect
        let logger = self.logger
        let app = self.app
        do {
            return try await driver.transaction(timeout: nil) { db in
                if let lock = dialect.migrationLockStatement {
                    try await db.execute(lock)
                }
                try await db.execute(Migrations.createMigrationsTable)
                let applied = try await Self.appliedVersions(db)
                if let newest = applied.max(), newest > Migrations.latestVersion {
                    throw StorageError.migrationFailed(
                        reason: "database schema version \(newest) is newer than this build (\(Migrations.latestVersion))")
                }
                for migration in Migrations.all where !applied.contains(migration.version) && migration.version <= version {
                    logger.info("applying database migration", metadata: [
                        "version": "\(migration.version)", "name": "\(migration.name)",
                    ])
                    for statement in migration.statements(dialect) {
                        try await db.execute(statement)
                    }
                    try await db.execute(
                        "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)",
                        .integer(Int64(migration.version)), .integer(Self.wallClockMilliseconds()))
                }
                guard version >= Migrations.latestVersion else { return version }
                if !app.isEmpty { try await Migrations.adoptRowsWithoutApp(app, in: db, logger: logger) }
                return Migrations.latestVersion
            }
        } catch let error as StorageError {
            if case .queryFailed(let reason) = error { throw StorageError.migrationFailed(reason: reason) }
            throw error
        }
    }

    func readiness() async throws -> StorageReadiness {
        let dialect = self.dialect
        let applied = try await transaction { db in
            let exists = try await db.query(dialect.tableExistsQuery, .text("schema_migrations"))
            guard let row = exists.first, try row.int64("n") > 0 else { return 0 }
            return try await Self.appliedVersions(db).max() ?? 0
        }
        return StorageReadiness(backend: backend, appliedVersion: applied, expectedVersion: Migrations.latestVersion)
    }

    func shutdown() async throws {
        try await driver.shutdown()
    }

    private static func appliedVersions(_ db: any SQLExecutor) async throws -> Set<Int> {
        Set(try await db.query("SELECT version FROM schema_migrations").map { try $0.int("version") })
    }

    private static func wallClockMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded())
    }
}
