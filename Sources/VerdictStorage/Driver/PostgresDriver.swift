import Logging
import PostgresNIO

/// `SQLDriver` over a PostgresNIO `PostgresClient` (a connection pool).
///
/// The driver owns the task running `client.run()`; `shutdown()` cancels it, which closes the pool.
final class PostgresDriver: SQLDriver {
    let backend = StorageBackend.postgres
    let dialect = SQLDialect.postgres
    let endpoint: DatabaseEndpoint
    private let client: PostgresClient
    private let runTask: Task<Void, Never>
    private let logger: Logger
    private let secrets: [String]
    private let closed = LockedFlag()

    private init(client: PostgresClient, runTask: Task<Void, Never>, logger: Logger, secrets: [String],
                 endpoint: DatabaseEndpoint) {
        self.endpoint = endpoint
        self.client = client
        self.runTask = runTask
        self.logger = logger
        self.secrets = secrets
    }

    /// Creates the pool and checks, with one direct connection, that the server answers, so a wrong
    /// URL or a stopped server fails here with `StorageError.unavailable` instead of hanging later.
    /// `readOnly`: every session starts with `default_transaction_read_only = on`.
    static func open(url: DatabaseURL.PostgresURL, maximumConnections: Int, connectTimeout: Duration,
                     readOnly: Bool = false, probe: Bool = true, logger: Logger) async throws -> PostgresDriver {
        let secrets = [url.password].compactMap { $0 }.filter { !$0.isEmpty }
        let tls: PostgresClient.Configuration.TLS
        let connectionTLS: PostgresConnection.Configuration.TLS
        do {
            switch url.tls {
            case .disable:
                tls = .disable
                connectionTLS = .disable
            case .prefer, .require:
                var configuration = TLSConfiguration.makeClientConfiguration()
                configuration.certificateVerification = .none
                let context = try NIOSSLContext(configuration: configuration)
                tls = url.tls == .prefer ? .prefer(configuration) : .require(configuration)
                connectionTLS = url.tls == .prefer ? .prefer(context) : .require(context)
            case .verifyFull:
                let context = try NIOSSLContext(configuration: .makeClientConfiguration())
                tls = .require(.makeClientConfiguration())
                connectionTLS = .require(context)
            }
        } catch {
            throw StorageError.invalidDatabaseURL(reason: "cannot set up TLS for sslmode=\(url.tls.rawValue)")
        }

        var probeConfiguration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password,
            database: url.database, tls: connectionTLS)
        probeConfiguration.options.connectTimeout = .nanoseconds(
            connectTimeout.components.seconds * 1_000_000_000 + connectTimeout.components.attoseconds / 1_000_000_000)
        if probe {
            do {
                let connection = try await PostgresConnection.connect(configuration: probeConfiguration, id: 0, logger: logger)
                try? await connection.close()
            } catch {
                throw map(error, context: "connect to \(url.host):\(url.port)/\(url.database)", secrets: secrets)
            }
        }

        var configuration = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password,
            database: url.database, tls: tls)
        configuration.options.maximumConnections = max(1, maximumConnections)
        configuration.options.connectTimeout = connectTimeout
        if readOnly { configuration.options.additionalStartupParameters = [("default_transaction_read_only", "on")] }
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        // Lease nothing before run() has begun (PostgresNIO warns otherwise): the task reports that
        // it started right before calling run(), whose first step marks the pool running.
        let (started, didStart) = AsyncStream<Void>.makeStream()
        let runTask = Task {
            didStart.finish()
            await client.run()
        }
        for await _ in started {}
        return PostgresDriver(client: client, runTask: runTask, logger: logger, secrets: secrets, endpoint: .postgres(url))
    }

    func transaction<T: Sendable>(
        timeout: Duration?,
        _ body: @escaping @Sendable (any SQLExecutor) async throws -> T
    ) async throws -> T {
        try await leased(timeout: timeout, context: "transaction") { client, logger in
            try await client.withTransaction(logger: logger) { connection in
                try await body(PostgresExecutor(connection: connection, logger: logger))
            }
        }
    }

    func autocommit<T: Sendable>(
        timeout: Duration?,
        _ body: @escaping @Sendable (any SQLExecutor) async throws -> T
    ) async throws -> T {
        try await leased(timeout: timeout, context: "statement") { client, logger in
            try await client.withConnection { connection in
                try await body(PostgresExecutor(connection: connection, logger: logger))
            }
        }
    }

    /// Runs `work` on the pool unless the driver is shut down, within `timeout` (which includes
    /// waiting for a connection), mapping every failure to `StorageError`.
    private func leased<T: Sendable>(
        timeout: Duration?, context: String,
        _ work: @escaping @Sendable (PostgresClient, Logger) async throws -> T
    ) async throws -> T {
        guard !closed.isSet else { throw StorageError.unavailable(reason: "PostgreSQL repository is shut down") }
        let client = self.client
        let logger = self.logger
        let secrets = self.secrets
        let mapped: @Sendable () async throws -> T = {
            do {
                return try await work(client, logger)
            } catch {
                throw Self.map(error, context: context, secrets: secrets)
            }
        }
        guard let timeout else { return try await mapped() }
        return try await withDeadline(timeout, timeoutError: {
            StorageError.unavailable(reason: "no answer from PostgreSQL within \(timeout)")
        }, mapped)
    }

    /// Runs one statement outside any transaction (`CREATE DATABASE`, `DROP DATABASE`): for
    /// administration tools and the test suite, never for repository work.
    func executeOutsideTransaction(_ sql: String) async throws {
        let logger = self.logger
        do {
            try await client.withConnection { connection in
                _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            }
        } catch {
            throw Self.map(error, context: "statement", secrets: secrets)
        }
    }

    func shutdown() async throws {
        guard !closed.isSet else { return }
        closed.set()
        runTask.cancel()
        // The pool waits for leased connections to come back; a call stuck on a dead connection
        // (left behind by a timeout) must not hold the process open.
        let runTask = self.runTask
        do {
            try await withDeadline(.seconds(10), timeoutError: {
                StorageError.unavailable(reason: "the PostgreSQL pool did not close within 10 s")
            }) { await runTask.value }
        } catch {
            logger.warning("closing the PostgreSQL pool timed out; leaving it to the process exit")
        }
    }

    /// Maps PostgresNIO, pool and NIO errors to `StorageError`, scrubbing `secrets`.
    static func map(_ error: any Error, context: String, secrets: [String]) -> StorageError {
        if let error = error as? StorageError { return error.redacting(secrets) }
        if let error = error as? PostgresTransactionError {
            if let inner = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError {
                return map(inner, context: context, secrets: secrets)
            }
        }
        let mapped: StorageError
        if let error = error as? PSQLError {
            mapped = map(error, context: context)
        } else if String(describing: type(of: error)) == "ConnectionPoolError" {
            // The pool's own errors (circuit breaker tripped, shut down, request cancelled).
            mapped = .unavailable(reason: "\(context): cannot get a PostgreSQL connection (\(error))")
        } else if error is CancellationError {
            mapped = .unavailable(reason: "\(context): cancelled")
        } else if error is IOError || error is ChannelError || error is NIOConnectionError {
            mapped = .unavailable(reason: "\(context): \(error)")
        } else {
            mapped = .queryFailed(reason: "\(context): \(type(of: error))")
        }
        return mapped.redacting(secrets)
    }

    private static func map(_ error: PSQLError, context: String) -> StorageError {
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? "?????"
            let message = error.serverInfo?[.message] ?? "server error"
            let reason = "\(context): \(message) (SQLSTATE \(state))"
            // 08: connection exception, 28: authentication, 3D000: no such database,
            // 53300: too many connections, 57P01-57P03: server shutting down / starting up.
            if state.hasPrefix("08") || state.hasPrefix("28") || state == "3D000" || state == "53300"
                || state.hasPrefix("57P") {
                return .unavailable(reason: reason)
            }
            return .queryFailed(reason: reason)
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown,
             .sslUnsupported, .failedToAddSSLHandler, .queryCancelled:
            var reason = "\(context): \(error.code)"
            if let underlying = error.underlying { reason += " (\(underlying))" }
            return .unavailable(reason: reason)
        case .authMechanismRequiresPassword, .unsupportedAuthMechanism, .saslError:
            return .unavailable(reason: "\(context): authentication failed (\(error.code))")
        default:
            return .queryFailed(reason: "\(context): \(error.code)")
        }
    }
}

/// Runs statements on a leased connection (inside `withTransaction`, or each on its own).
private struct PostgresExecutor: SQLExecutor {
    let connection: PostgresConnection
    let logger: Logger

    func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let sequence = try await connection.query(PostgresQuery(unsafeSQL: sql, binds: Self.bindings(binds)), logger: logger)
        return try await Self.rows(sequence)
    }

    func query<Statement: SQLStatement>(prepared statement: Statement.Type, _ binds: [SQLValue]) async throws -> [SQLRow] {
        let prepared = PreparedSQLStatement<Statement>(bindings: Self.bindings(binds))
        return try await Self.rows(try await connection.execute(prepared, logger: logger))
    }

    private static func bindings(_ binds: [SQLValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: binds.count)
        for value in binds {
            switch value {
            case .integer(let integer): bindings.append(integer)
            case .real(let real): bindings.append(real)
            case .text(let text): bindings.append(text)
            case .null: bindings.appendNull()
            }
        }
        return bindings
    }

    private static func rows<Rows: AsyncSequence>(_ sequence: Rows) async throws -> [SQLRow] where Rows.Element == PostgresRow {
        var rows: [SQLRow] = []
        // Every row of one statement has the same columns: named once.
        var columns: SQLRow.Columns?
        for try await row in sequence {
            var values: [SQLValue] = []
            for cell in row {
                values.append(try Self.value(of: cell))
            }
            let named = columns ?? SQLRow.Columns(row.map(\.columnName))
            columns = named
            rows.append(SQLRow(columns: named, values: values))
        }
        return rows
    }

    private static func value(of cell: PostgresCell) throws -> SQLValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8, .oid:
            return .integer(try cell.decode(Int64.self))
        case .bool:
            return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .float4, .float8:
            return .real(try cell.decode(Double.self))
        case .numeric:
            let text = try cell.decode(String.self)
            guard let value = Int64(text) else {
                throw StorageError.corruptRow(reason: "column \(cell.columnName) is not an integer")
            }
            return .integer(value)
        default:
            return .text(try cell.decode(String.self))
        }
    }
}

/// A ``SQLStatement`` as PostgresNIO prepares it: once per connection, under its hash-derived name.
private struct PreparedSQLStatement<Statement: SQLStatement>: PostgresPreparedStatement {
    typealias Row = PostgresRow

    static var name: String { Statement.preparedName }
    static var sql: String { Statement.sql }

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}
