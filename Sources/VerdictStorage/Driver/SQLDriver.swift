/// A value bound to a `$n` placeholder or read from a column: integers and text, and the floating
/// sums of the daily statistics.
enum SQLValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null

    init(_ value: Int64?) { self = value.map(SQLValue.integer) ?? .null }
    init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }
}

/// One result row, columns by name (lower case, as written in the SQL).
struct SQLRow: Sendable {
    /// The columns of one result by name, shared by all its rows (a later column of the same
    /// name wins).
    final class Columns: Sendable {
        let index: [String: Int]

        init(_ names: [String]) {
            var index: [String: Int] = [:]
            for (offset, name) in names.enumerated() { index[name] = offset }
            self.index = index
        }
    }

    let columns: Columns
    /// The values, in the order of the result's columns.
    let values: [SQLValue]

    init(columns: Columns, values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    func int64(_ column: String) throws -> Int64 {
        guard let value = try optionalInt64(column) else {
            throw StorageError.corruptRow(reason: "column \(column) is null")
        }
        return value
    }

    func optionalInt64(_ column: String) throws -> Int64? {
        switch try value(column) {
        case .integer(let value): return value
        case .real(let value): return Int64(value)
        case .null: return nil
        case .text: throw StorageError.corruptRow(reason: "column \(column) is text, expected an integer")
        }
    }

    /// A numeric column as a `Double` (an integer is converted; null is 0, as a sum of no rows).
    func double(_ column: String) throws -> Double {
        switch try value(column) {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        case .null: return 0
        case .text: throw StorageError.corruptRow(reason: "column \(column) is text, expected a number")
        }
    }

    func int(_ column: String) throws -> Int { Int(try int64(column)) }

    func string(_ column: String) throws -> String {
        guard let value = try optionalString(column) else {
            throw StorageError.corruptRow(reason: "column \(column) is null")
        }
        return value
    }

    func optionalString(_ column: String) throws -> String? {
        switch try value(column) {
        case .text(let value): return value
        case .null: return nil
        case .integer, .real: throw StorageError.corruptRow(reason: "column \(column) is a number, expected text")
        }
    }

    /// A text column holding the raw value of `T`.
    func enumValue<T: RawRepresentable>(_ column: String, as type: T.Type) throws -> T where T.RawValue == String {
        let raw = try string(column)
        guard let value = T(rawValue: raw) else {
            throw StorageError.corruptRow(reason: "column \(column) has unknown value '\(raw)'")
        }
        return value
    }

    private func value(_ column: String) throws -> SQLValue {
        guard let offset = columns.index[column], offset < values.count else {
            throw StorageError.corruptRow(reason: "missing column \(column)")
        }
        return values[offset]
    }
}

/// Runs statements inside one open transaction. SQL uses `$1…$n` placeholders and holds exactly
/// one statement.
protocol SQLExecutor: Sendable {
    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow]

    /// Runs a ``SQLStatement``: prepared once per connection where the database supports it.
    func query<Statement: SQLStatement>(prepared statement: Statement.Type, _ binds: [SQLValue]) async throws -> [SQLRow]
}

extension SQLExecutor {
    /// By default a ``SQLStatement`` runs like any other statement.
    func query<Statement: SQLStatement>(prepared statement: Statement.Type, _ binds: [SQLValue]) async throws -> [SQLRow] {
        try await query(Statement.sql, binds)
    }

    func query(_ sql: String, _ binds: SQLValue...) async throws -> [SQLRow] {
        try await query(sql, binds)
    }

    /// Runs a statement and discards any rows.
    func execute(_ sql: String, _ binds: SQLValue...) async throws {
        _ = try await query(sql, binds)
    }
}

/// The little a database driver must offer so that `SQLRepository` can write its SQL once.
///
/// Drivers map every failure to `StorageError` (and never put binds or the password into it).
protocol SQLDriver: Sendable {
    var backend: StorageBackend { get }
    var dialect: SQLDialect { get }
    /// What a database span says of where the statements go.
    var endpoint: DatabaseEndpoint { get }

    /// Runs `body` in one transaction (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: `BEGIN`, read committed):
    /// committed when it returns, rolled back when it throws.
    /// - Parameter timeout: how long the whole transaction, including waiting for a connection, may
    ///   take before it fails with `StorageError.unavailable` (nil: no limit, for migrations).
    func transaction<T: Sendable>(
        timeout: Duration?,
        _ body: @escaping @Sendable (any SQLExecutor) async throws -> T
    ) async throws -> T

    /// Runs `body` on one connection without an explicit transaction: each statement commits on
    /// its own (no `BEGIN`/`COMMIT` round trips). For calls made of exactly one statement — a read,
    /// or a write that is atomic by itself — where a transaction would only add round trips.
    func autocommit<T: Sendable>(
        timeout: Duration?,
        _ body: @escaping @Sendable (any SQLExecutor) async throws -> T
    ) async throws -> T

    /// Closes every connection; later calls fail with `StorageError.unavailable`.
    func shutdown() async throws
}

/// The dialect differences between the backends, so that queries are written once.
struct SQLDialect: Sendable {
    /// Which database this dialect is for (migrations that exist on one backend only).
    var backend: StorageBackend
    /// Column type of an auto-incrementing 64-bit primary key.
    var autoIncrementPrimaryKey: String
    /// Column type for binary data (unused by migration 1; kept for later migrations).
    var binary: String
    /// A statement taking a lock held until the migration transaction ends, or nil when the
    /// transaction itself serializes migrations (SQLite's `BEGIN IMMEDIATE`).
    var migrationLockStatement: String?
    /// A query returning one row with column `n` > 0 when table `$1` exists.
    var tableExistsQuery: String

    static let sqlite = SQLDialect(
        backend: .sqlite,
        autoIncrementPrimaryKey: "INTEGER PRIMARY KEY AUTOINCREMENT",
        binary: "BLOB",
        migrationLockStatement: nil,
        tableExistsQuery: "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = $1"
    )

    static let postgres = SQLDialect(
        backend: .postgres,
        autoIncrementPrimaryKey: "BIGSERIAL PRIMARY KEY",
        binary: "BYTEA",
        // An arbitrary application-wide key: "verdict-migrations" folded into 63 bits.
        migrationLockStatement: "SELECT pg_advisory_xact_lock(7465823160912338721)",
        tableExistsQuery: """
            SELECT COUNT(*) AS n FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_name = $1
            """
    )
}
