import Logging

/// Tuning for `RepositoryFactory.open`. The defaults suit the service.
public struct StorageOptions: Sendable {
    /// PostgreSQL: most pooled connections one repository opens.
    public var postgresMaximumConnections: Int
    /// PostgreSQL: how long to wait for a TCP connection and the startup handshake.
    public var connectTimeout: Duration
    /// PostgreSQL: how long one repository call (one transaction, including waiting for a pooled
    /// connection) may take before it fails with `StorageError.unavailable`. Migrations are exempt.
    public var operationTimeout: Duration
    /// SQLite: how long a transaction waits for another process's write lock (`busy_timeout`).
    public var sqliteBusyTimeout: Duration
    /// Opens the database for reading only (replays beside a running service): SQLite refuses
    /// every write on the connection (`query_only`) and the file must already exist; PostgreSQL
    /// sessions start with `default_transaction_read_only = on`. Never migrate such a repository.
    public var readOnly: Bool
    /// PostgreSQL: connect once while opening, so an unreachable server fails `open` (true), or
    /// open without connecting, every call then connecting as needed and failing with
    /// `StorageError.unavailable` while the server is away (false: a service that starts before
    /// its database).
    public var connectOnOpen = true

    public init(postgresMaximumConnections: Int = 10, connectTimeout: Duration = .seconds(10),
                operationTimeout: Duration = .seconds(30), sqliteBusyTimeout: Duration = .seconds(10),
                readOnly: Bool = false) {
        self.readOnly = readOnly
        self.postgresMaximumConnections = postgresMaximumConnections
        self.connectTimeout = connectTimeout
        self.operationTimeout = operationTimeout
        self.sqliteBusyTimeout = sqliteBusyTimeout
    }
}

/// Opens the `VerdictRepository` a database URL names.
public enum RepositoryFactory {
    /// Opens `databaseURL` (parsed with `DatabaseURL(parsing:)`):
    /// - `sqlite:PATH` (relative to the working directory, or absolute; `sqlite:///abs/path` too)
    ///   and `sqlite::memory:`;
    /// - `postgres://user:pass@host:port/db[?sslmode=disable|prefer|require|verify-full]`
    ///   (or `postgresql://`).
    ///
    /// Does not migrate: call `migrate()`. Throws `StorageError.unavailable` when the database cannot
    /// be opened or reached; no error text contains the password.
    public static func open(databaseURL: DatabaseURL, logger: Logger) async throws -> any VerdictRepository {
        try await open(databaseURL: databaseURL, options: StorageOptions(), logger: logger)
    }

    /// `open(databaseURL:logger:)` with explicit tuning.
    public static func open(databaseURL: DatabaseURL, options: StorageOptions, logger: Logger) async throws -> any VerdictRepository {
        switch databaseURL {
        case .sqliteFile(let path):
            let driver = try await SQLiteDriver.open(
                path: path, busyTimeoutMilliseconds: milliseconds(options.sqliteBusyTimeout), readOnly: options.readOnly,
                logger: logger)
            return SQLRepository(driver: driver, logger: logger, operationTimeout: nil)
        case .sqliteMemory:
            let driver = try await SQLiteDriver.open(
                path: nil, busyTimeoutMilliseconds: milliseconds(options.sqliteBusyTimeout), readOnly: options.readOnly,
                logger: logger)
            return SQLRepository(driver: driver, logger: logger, operationTimeout: nil)
        case .postgres(let url):
            let driver = try await PostgresDriver.open(
                url: url, maximumConnections: options.postgresMaximumConnections,
                connectTimeout: options.connectTimeout, readOnly: options.readOnly, probe: options.connectOnOpen, logger: logger)
            return SQLRepository(driver: driver, logger: logger, operationTimeout: options.operationTimeout)
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
