import Testing

@testable import VerdictStorage

/// A database span's name and `db.query.summary`: each statement's operation and first table, in
/// order — never a value, a bind or a comment.
@Suite("Storage: database span summaries")
struct QuerySummaryTests {
    @Test("each statement's operation and table", arguments: [
        ("SELECT id, kind FROM jobs WHERE app = $1", "SELECT jobs"),
        ("  insert into notifications (app, uuid) VALUES ($1, $2)", "INSERT notifications"),
        ("UPDATE notifications SET job_id = $1 WHERE notification_uuid = $2", "UPDATE notifications"),
        ("DELETE FROM console_sessions WHERE id = $1", "DELETE console_sessions"),
        ("SELECT pg_advisory_xact_lock($1) AS locked", "SELECT pg_advisory_xact_lock"),
        ("SELECT 1 AS n", "SELECT"),
        // Upserts and locking reads are one operation: `DO UPDATE`, `FOR UPDATE` are clauses.
        ("INSERT INTO jobs (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET state = 'queued' RETURNING id", "INSERT jobs"),
        ("SELECT id FROM jobs WHERE state = 'queued' FOR UPDATE SKIP LOCKED", "SELECT jobs"),
        ("INSERT INTO shipping (id) SELECT id FROM orders", "INSERT shipping SELECT orders"),
        // Quoted text and comments are never read: a value that looks like SQL stays out.
        ("SELECT id FROM jobs WHERE payload = 'DELETE FROM secrets' -- UPDATE comments\nAND app = $1", "SELECT jobs"),
        // A common table expression's name is not a table (PostgreSQL's one-statement intake).
        ("""
         WITH drawn AS (SELECT nextval(pg_get_serial_sequence('jobs', 'id')) AS id),
         stored AS (INSERT INTO notifications (a, job_id) SELECT $1, drawn.id FROM drawn
             ON CONFLICT (notification_uuid) DO NOTHING RETURNING notification_uuid, job_id)
         INSERT INTO jobs (id, notification_uuid) SELECT stored.job_id, stored.notification_uuid FROM stored RETURNING id
         """, "SELECT nextval INSERT notifications INSERT jobs"),
        ("CREATE TABLE t (id INTEGER REFERENCES u ON DELETE CASCADE)", "CREATE"),
        ("PRAGMA journal_mode = WAL", "PRAGMA"),
        ("", ""),
    ])
    func summaries(_ sql: String, _ expected: String) {
        var summary = QuerySummary()
        summary.add(sql)
        #expect((summary.text ?? "") == expected, "\(sql)")
    }

    @Test("a transaction's statements in the order first met, each once, and no longer than 255 characters")
    func transactions() throws {
        var summary = QuerySummary()
        summary.add("INSERT INTO notifications (a) VALUES ($1)")
        summary.add("INSERT INTO jobs (a) VALUES ($1)")
        summary.add("SELECT id FROM jobs WHERE dedupe_key = $1")
        summary.add("INSERT INTO jobs (a) VALUES ($1)")
        summary.add("UPDATE notifications SET job_id = $1")
        summary.add("SELECT id FROM jobs WHERE dedupe_key = $1")
        #expect(summary.text == "INSERT notifications INSERT jobs SELECT jobs UPDATE notifications")
        for index in 0..<100 { summary.add("SELECT x FROM table_number_\(index)") }
        // Once a part did not fit, a later shorter one is not added either.
        summary.add("DELETE FROM t")
        let text = try #require(summary.text)
        #expect(text.count <= QuerySummary.maximumLength && text.count > QuerySummary.maximumLength - 30)
        #expect(text.hasPrefix("INSERT notifications") && text.contains("SELECT table_number_0") && !text.contains("DELETE"))
        // Whole parts only: an operation is never cut from its table.
        #expect(text.split(separator: " ").count.isMultiple(of: 2) && text.split(separator: " ").last?.hasPrefix("table_number_") == true)
    }

    @Test("database spans are made only inside a recording span")
    func recording() async throws {
        struct Executor: SQLExecutor {
            func query(_ sql: String, _ binds: [SQLValue]) async throws -> [SQLRow] { [] }
        }
        // Outside one (no tracer is bootstrapped here) the executor is handed over as it is; inside,
        // it is wrapped so the span learns the statements.
        let outside = try await DatabaseSpan.trace(.sqlite, transaction: false) { observe in observe(Executor()) is Executor }
        let inside = try await TraceRecording.$isOn.withValue(true) {
            try await DatabaseSpan.trace(.sqlite, transaction: false) { observe in observe(Executor()) is Executor }
        }
        #expect(outside && !inside)
        #expect(TraceParent.current() == nil && !TraceRecording.isOn)
    }
}
