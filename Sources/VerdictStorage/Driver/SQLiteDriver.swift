import Foundation
import Logging
import SQLiteNIO

/// `SQLDriver` over one SQLite connection (sqlite-nio's bundled SQLite).
///
/// One connection is enough for a single-process service: every transaction runs under an async
/// lock, starts with `BEGIN IMMEDIATE` (so a second process sharing the file waits for the write
/// lock up to `busy_timeout` instead of failing mid-transaction) and ends with `COMMIT`.
///
/// Durability: WAL journal with `synchronous=FULL`, so every `COMMIT` fsyncs the WAL before it
/// returns. `NORMAL` in WAL mode is only safe against application crashes: after a power loss or
/// kernel panic the last commits can roll back, which breaks "durable when the method returns"
/// (a notification Apple was told we stored could vanish). FULL costs one fsync per commit.
final class SQLiteDriver: SQLDriver {
    let backend = StorageBackend.sqlite
    let dialect = SQLDialect.sqlite
    let endpoint = DatabaseEndpoint.sqlite
    private let connection: SQLiteConnection
    /// This connection's own thread: a statement waiting on another process's lock (busy_timeout)
    /// blocks only this connection, never the shared pool other connections need to commit.
    private let threadPool: NIOThreadPool
    private let lock = AsyncLock()
    private let state = LockedFlag()
    private let description: String

    private init(connection: SQLiteConnection, threadPool: NIOThreadPool, description: String) {
        self.connection = connection
        self.threadPool = threadPool
        self.description = description
    }

    /// Opens (creating if needed) the database; nil `path` means in-memory. `readOnly`: the file
    /// must exist, and the connection refuses every write (`PRAGMA query_only`).
    static func open(path: String?, busyTimeoutMilliseconds: Int, readOnly: Bool = false, logger: Logger) async throws
        -> SQLiteDriver {
        let storage: SQLiteConnection.Storage
        var description = "in-memory SQLite"
        if let path {
            let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            let directory = (absolute as NSString).deletingLastPathComponent
            if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
                throw StorageError.unavailable(reason: "directory of SQLite database \(absolute) does not exist")
            }
            if readOnly, !FileManager.default.fileExists(atPath: absolute) {
                throw StorageError.unavailable(reason: "no SQLite database at \(absolute)")
            }
            storage = .file(path: absolute)
            description = "SQLite \(absolute)"
        } else {
            storage = .memory
        }
        let threadPool = NIOThreadPool(numberOfThreads: 1)
        threadPool.start()
        let connection: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(
                storage: storage, threadPool: threadPool, logger: logger,
                on: MultiThreadedEventLoopGroup.singleton.any())
        } catch {
            try? await threadPool.shutdownGracefully()
            throw Self.map(error, context: "open \(description)")
        }
        let driver = SQLiteDriver(connection: connection, threadPool: threadPool, description: description)
        do {
            // journal_mode answers a row; the others answer none. busy_timeout replaces sqlite-nio's
            // retry-forever busy handler with a bounded wait.
            // A reader leaves the journal mode to the service that owns the file.
            let pragmas = readOnly
                ? ["PRAGMA busy_timeout = \(max(0, busyTimeoutMilliseconds))", "PRAGMA query_only = ON"]
                : ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL",
                   "PRAGMA busy_timeout = \(max(0, busyTimeoutMilliseconds))", "PRAGMA foreign_keys = ON"]
            for pragma in pragmas {
                _ = try await connection.query(pragma, [])
            }
        } catch {
            try? await connection.close()
            try? await threadPool.shutdownGracefully()
            throw Self.map(error, context: "configure \(description)")
        }
        return driver
    }

    func transaction<T: Sendable>(
        timeout: Duration?,
        _ body: @escaping @Sendable (any SQLExecutor) async throws -> T
    ) async throws -> T {
        // `timeout` is covered by busy_timeout: SQLite never waits on the network.
        try await exclusive { connection in
            let executor = SQLiteExecutor(connection: connection)
            do {
                _ = try await connection.query("BEGIN IMMEDIATE", [])
            } catch {
                throw Self.map(error, context: "begin transaction")
            }
            do {
                let result = try await body(executor)
                _ = try await connection.query("COMMIT", [])
                return result
            } catch {
                _ = try? await connection.query("ROLLBACK", [])
                throw Self.map(error, context: "transaction")
            }
        }
    }

    func autocommit<T: Sendable>(
        timeout: Duration?,
        _ body: @escaping @Sendable (any SQLExecutor) async throws -> T
    ) async throws -> T {
        try await exclusive { connection in
            do {
                return try await body(SQLiteExecutor(connection: connection))
            } catch {
                throw Self.map(error, context: "statement")
            }
        }
    }

    /// Runs `work` with the connection to itself (one call at a time), unless shut down.
    private func exclusive<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) async throws -> T) async throws -> T {
        let connection = self.connection
        let description = self.description
        let state = self.state
        return try await lock.withLock {
            guard !state.isSet else {
                throw StorageError.unavailable(reason: "\(description) repository is shut down")
            }
            return try await work(connection)
        }
    }

    func shutdown() async throws {
        let connection = self.connection
        let state = self.state
        let threadPool = self.threadPool
        try await lock.withLock {
            guard !state.isSet else { return }
            state.set()
            do {
                try await connection.close()
            } catch {
                try? await threadPool.shutdownGracefully()
                throw Self.map(error, context: "close")
            }
            try? await threadPool.shutdownGracefully()
        }
    }

    /// Maps sqlite-nio errors; `StorageError`s pass through.
    static func map(_ error: any Error, context: String) -> StorageError {
        if let error = error as? StorageError { return error }
        guard let error = error as? SQLiteError else {
            return .queryFailed(reason: "\(context): \(type(of: error))")
        }
        let reason = "\(context): \(error.message)"
        switch error.reason {
        case .busy, .busyTimeout, .busyInRecovery, .busyInSnapshot, .locked, .lockedBySharedCache,
             .cantOpen, .cantOpenDirectory, .cantOpenInvalidPath, .ioError, .ioErrorFailedRead, .ioErrorFailedWrite,
             .ioErrorFailedSync, .ioErrorFailedDirSync, .ioErrorFailedTruncate, .ioErrorFailedStat,
             .ioErrorFailedReadLock, .ioErrorFailedLockCheck, .ioErrorFailedSharedMemOpen, .full,
             .readOnly, .readonlyCantLock, .readonlyDirectory, .readonlyBackingMoved, .notADatabase, .corrupt:
            return .unavailable(reason: reason)
        default:
            return .queryFailed(reason: reason)
        }
    }
}

/// Runs statements on the SQLite connection, rewriting `$n` placeholders to `?n`.
private struct SQLiteExecutor: SQLExecutor {
    let connection: SQLiteConnection

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let values = binds.map { value -> SQLiteData in
            switch value {
            case .integer(let integer): return .integer(SQLiteInt64(integer))
            case .real(let real): return .float(real)
            case .text(let text): return .text(text)
            case .null: return .null
            }
        }
        let rows = try await connection.query(PlaceholderRewriter.sqlite(sql), values)
        guard let first = rows.first else { return [] }
        // Every row of one statement has the same columns: named once.
        let columns = SQLRow.Columns(first.columns.map(\.name))
        return rows.map { row in
            SQLRow(columns: columns, values: row.columns.map { column in
                switch column.data {
                case .integer(let integer): .integer(Int64(integer))
                case .float(let double): .real(double)
                case .text(let text): .text(text)
                case .blob(let buffer): .text(String(buffer: buffer))
                case .null: .null
                }
            })
        }
    }
}

/// A flag set once, readable from any thread.
final class LockedFlag: @unchecked Sendable {
    private let mutex = NSLock()
    private var value = false
    var isSet: Bool { mutex.withLock { value } }
    func set() { mutex.withLock { value = true } }
}
