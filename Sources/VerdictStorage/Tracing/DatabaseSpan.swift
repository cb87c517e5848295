import OTelSemanticConventions
import Synchronization
import Tracing

/// Client spans for database calls, following OpenTelemetry's database conventions: one per
/// repository call (a transaction, or a single statement) made inside a sampled trace, named by
/// the statements' summary (`INSERT notifications INSERT jobs UPDATE notifications`), with the system, database and
/// server — never a bind value, and never the query text.
///
/// Calls outside a trace (the job queue's polling, migrations, tools) and in traces the sampler
/// dropped make no span at all (``TraceRecording``): with tracing off a call costs one task-local read.
enum DatabaseSpan {
    /// Runs `call` inside a span when the current trace is sampled; `call` receives a function
    /// that wraps the executor it gets so the span learns the statements.
    static func trace<T>(
        _ endpoint: DatabaseEndpoint, transaction: Bool,
        _ call: (_ observe: @escaping @Sendable (any SQLExecutor) -> any SQLExecutor) async throws -> T
    ) async throws -> T {
        guard TraceRecording.isOn else { return try await call { $0 } }
        return try await withSpan(endpoint.system, ofKind: .client) { span in
            let statements = Statements()
            endpoint.describe(span)
            if transaction { span.attributes["verdict.db.transaction"] = true }
            defer { statements.name(span) }
            return try await call { SummarizingExecutor(base: $0, statements: statements) }
        }
    }

    /// A child span for waiting on a lock (PostgreSQL's `pg_advisory_xact_lock`): the time
    /// between asking for it and holding it, so a decision queued behind another shows where.
    static func lockWait<T>(
        _ name: String, attributes: @autoclosure () -> SpanAttributes, _ wait: () async throws -> T
    ) async throws -> T {
        guard TraceRecording.isOn else { return try await wait() }
        return try await withSpan(name, ofKind: .client) { span in
            span.attributes.merge(attributes())
            return try await wait()
        }
    }

    /// The statements a span's call ran (shared with the executor, which may run on another task).
    final class Statements: Sendable {
        private let summary = Mutex(QuerySummary())

        func add(_ sql: String) { summary.withLock { $0.add(sql) } }

        /// Names `span` by the summary (it keeps the system's name when no statement ran).
        func name(_ span: any Span) {
            guard let text = summary.withLock({ $0.text }) else { return }
            span.operationName = text
            span.attributes.db.query.summary = text
        }
    }

    /// An executor that records each statement's summary before running it.
    private struct SummarizingExecutor: SQLExecutor {
        let base: any SQLExecutor
        let statements: Statements

        func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] {
            statements.add(sql)
            return try await base.query(sql, binds)
        }

        func query<Statement: SQLStatement>(prepared statement: Statement.Type, _ binds: [SQLValue]) async throws -> [SQLRow] {
            statements.add(Statement.sql)
            return try await base.query(prepared: statement, binds)
        }
    }
}
