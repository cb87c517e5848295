extension SQLRepository {
    static let jobColumns = """
        id, app, kind, payload, notification_uuid, dedupe_key, state, run_at, deadline, max_attempts, attempts,
        lease_owner, lease_until, last_error, created_at, updated_at, trace_parent
        """

    /// Claim order: jobs with a deadline first (earliest first), then `run_at`, then id.
    static let claimOrder = "CASE WHEN deadline IS NULL THEN 1 ELSE 0 END, deadline, run_at, id"

    func enqueue(_ job: NewJob) async throws -> JobEnqueueResult {
        let app = self.app
        return try await transaction { db in try await Self.enqueue(job, app: app, in: db) }
    }

    /// Inserts `job` as a job of `app` inside an open transaction, honouring the dedupe key (one
    /// non-dead job per app and key: two apps' jobs never dedupe each other).
    static func enqueue(_ job: NewJob, app: String, in db: any SQLExecutor) async throws -> JobEnqueueResult {
        let insert = """
            INSERT INTO jobs (app, kind, payload, notification_uuid, dedupe_key, state, run_at, deadline, max_attempts,
                attempts, created_at, updated_at, trace_parent)
            VALUES ($9, $1, $2, $3, $4, 'queued', $5, $6, $7, 0, $8, $8, $10)
            ON CONFLICT (app, dedupe_key) WHERE dedupe_key IS NOT NULL AND state <> 'dead' DO NOTHING
            RETURNING id
            """
        // A conflicting job may die between the insert and the look-up: try again then.
        for _ in 0..<3 {
            let inserted = try await db.query(
                insert, .text(job.kind), .text(job.payload), SQLValue(job.notificationUUID), SQLValue(job.dedupeKey),
                .integer(job.runAt), SQLValue(job.deadline), .integer(Int64(job.maxAttempts)), .integer(job.createdAt),
                .text(app), SQLValue(job.traceParent))
            if let row = inserted.first { return JobEnqueueResult(id: try row.int64("id"), created: true) }
            guard let dedupeKey = job.dedupeKey else { break }
            let existing = try await db.query(
                "SELECT id, trace_parent FROM jobs WHERE app = $2 AND dedupe_key = $1 AND state <> 'dead'", .text(dedupeKey), .text(app))
            if let row = existing.first {
                return JobEnqueueResult(id: try row.int64("id"), created: false, traceParent: try row.optionalString("trace_parent"))
            }
        }
        throw StorageError.queryFailed(reason: "enqueue: job was neither inserted nor found by its dedupe key")
    }

    func claimJobs(owner: String, limit: Int, leaseMilliseconds: Int64, now: Int64, kinds: [String]?,
                   includeExpiredLeases: Bool) async throws -> [JobRecord] {
        guard limit > 0, kinds?.isEmpty != true else { return [] }
        // Two index-friendly statements instead of one with `OR` (which made PostgreSQL scan and
        // sort every queued job on each claim): first the jobs of crashed workers (running with
        // an expired lease: few, `jobs_running_lease`), then queued jobs in claim order
        // (`jobs_queued_claim`).
        var jobs: [JobRecord] = []
        if includeExpiredLeases {
            try await buryAbandonedJobs(now: now)
            jobs = try await claim(state: "running", due: "lease_until", owner: owner, limit: limit,
                                   leaseMilliseconds: leaseMilliseconds, now: now, kinds: kinds)
        }
        if jobs.count < limit {
            jobs += try await claim(state: "queued", due: "run_at", owner: owner, limit: limit - jobs.count,
                                    leaseMilliseconds: leaseMilliseconds, now: now, kinds: kinds)
        }
        // RETURNING has no defined order: restore the claim order.
        return jobs.sorted { a, b in
            switch (a.job.deadline, b.job.deadline) {
            case let (x?, y?) where x != y: return x < y
            case (.some, .none): return true
            case (.none, .some): return false
            default: return (a.job.runAt, a.id) < (b.job.runAt, b.id)
            }
        }
    }

    /// Jobs whose lease ran out on every attempt they were allowed go dead instead of being claimed
    /// again: each worker that held one stopped before finishing, so the job may be what stops them
    /// (a crash on its input would otherwise repeat on every instance, once a lease time, forever).
    private func buryAbandonedJobs(now: Int64) async throws {
        try await transaction { db in
            let rows = try await db.query("""
                UPDATE jobs SET state = 'dead', lease_owner = NULL, lease_until = NULL, updated_at = $1,
                    last_error = 'abandoned: the lease ran out on each of its ' || attempts
                        || ' attempts (the worker holding it stopped before finishing)'
                WHERE state = 'running' AND lease_until <= $1 AND attempts >= max_attempts
                RETURNING notification_uuid, app, last_error
                """, .integer(now))
            for row in rows {
                try await Self.failNotification(of: row, error: try row.string("last_error"), in: db)
            }
        }
    }

    /// Marks the notification a dead job processed (if any) `failed` with `error`; `job` is the
    /// job's row with its `notification_uuid` and `app`.
    private static func failNotification(of job: SQLRow, error: String, in db: any SQLExecutor) async throws {
        guard let uuid = try job.optionalString("notification_uuid") else { return }
        try await db.execute(
            "UPDATE notifications SET state = 'failed', result = $2 WHERE notification_uuid = $1 AND app = $3",
            .text(uuid), .text(error), .text(try job.string("app")))
    }

    /// Leases up to `limit` jobs in `state` whose `due` column is at or before `now`, in claim order.
    private func claim(state: String, due: String, owner: String, limit: Int, leaseMilliseconds: Int64, now: Int64,
                       kinds: [String]?) async throws -> [JobRecord] {
        var binds: [SQLValue] = [.text(owner), .integer(now + leaseMilliseconds), .integer(now), .integer(Int64(limit))]
        if backend == .postgres {
            binds.append(kinds.map { .text(Self.postgresTextArray($0)) } ?? .null)
            return try await statement { [binds] db in
                let rows = state == "queued"
                    ? try await db.query(prepared: ClaimQueuedJobs.self, binds)
                    : try await db.query(prepared: ClaimExpiredLeases.self, binds)
                return try rows.map(Self.jobRecord)
            }
        }
        // SQLite: one writer at a time, so no row locks to skip.
        var kindFilter = ""
        if let kinds {
            let placeholders = kinds.indices.map { "$\(binds.count + 1 + $0)" }
            kindFilter = "AND kind IN (\(placeholders.joined(separator: ", ")))"
            binds += kinds.map(SQLValue.text)
        }
        let sql = """
            UPDATE jobs SET state = 'running', lease_owner = $1, lease_until = $2, attempts = attempts + 1,
                updated_at = $3
            WHERE id IN (
                SELECT id FROM jobs
                WHERE state = '\(state)' AND \(due) <= $3 \(kindFilter)
                ORDER BY \(Self.claimOrder)
                LIMIT $4
            )
            RETURNING \(Self.jobColumns)
            """
        return try await statement { [binds] db in try await db.query(sql, binds).map(Self.jobRecord) }
    }

    /// PostgreSQL: queued jobs, through migration 5's function (it walks `jobs_queued_claim` in
    /// claim order). `$5` is a text array of kinds, or null for every kind.
    private enum ClaimQueuedJobs: SQLStatement {
        static let sql = """
            SELECT \(SQLRepository.jobColumns)
            FROM verdict_claim_queued_jobs($1, $2::BIGINT, $3::BIGINT, $4::BIGINT, $5::TEXT[])
            """
    }

    /// PostgreSQL: running jobs whose lease expired (a crashed worker's), on `jobs_running_lease`.
    private enum ClaimExpiredLeases: SQLStatement {
        static let sql = """
            UPDATE jobs SET state = 'running', lease_owner = $1, lease_until = $2::BIGINT, attempts = attempts + 1,
                updated_at = $3::BIGINT
            WHERE id IN (
                SELECT id FROM jobs
                WHERE state = 'running' AND lease_until <= $3::BIGINT AND ($5::TEXT[] IS NULL OR kind = ANY ($5::TEXT[]))
                ORDER BY \(SQLRepository.claimOrder)
                LIMIT $4::BIGINT
                FOR UPDATE SKIP LOCKED
            )
            RETURNING \(SQLRepository.jobColumns)
            """
    }

    /// A PostgreSQL array literal of `values`, each element double-quoted and escaped.
    static func postgresTextArray(_ values: [String]) -> String {
        let elements = values.map { value in
            "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "{" + elements.joined(separator: ",") + "}"
    }

    @discardableResult
    func completeJob(id: Int64, owner: String, result: String?, now: Int64) async throws -> Bool {
        if backend == .postgres {
            // One statement, one round trip: both updates commit together.
            return try await statement { db in
                try await db.query(CompleteJobAndNotification.self, .integer(id), .text(owner), .integer(now), SQLValue(result))
                    .first?.int64("completed") == 1
            }
        }
        return try await transaction { db in
            let rows = try await db.query("""
                UPDATE jobs SET state = 'done', lease_owner = NULL, lease_until = NULL, updated_at = $3
                WHERE id = $1 AND lease_owner = $2 AND state = 'running'
                RETURNING notification_uuid, app
                """, .integer(id), .text(owner), .integer(now))
            guard let row = rows.first else { return false }
            if let uuid = try row.optionalString("notification_uuid") {
                try await db.execute("""
                    UPDATE notifications SET state = 'processed', result = $2, processed_at = $3,
                        processed_count = processed_count + 1
                    WHERE notification_uuid = $1 AND app = $4
                    """, .text(uuid), SQLValue(result), .integer(now), .text(try row.string("app")))
            }
            return true
        }
    }

    @discardableResult
    func failJob(id: Int64, owner: String, error: String, retryAt: Int64?, countsAsAttempt: Bool, now: Int64) async throws -> Bool {
        try await transaction { db in
            let lease = "WHERE id = $1 AND lease_owner = $2 AND state = 'running' RETURNING notification_uuid, app"
            if let retryAt {
                // A job that waits gives its attempt back, and runs again at once when it was woken
                // while it ran (what it waited for happened meanwhile).
                let attempts = countsAsAttempt ? "attempts" : "CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END"
                let runAt = countsAsAttempt ? "$4" : "CASE WHEN woken_at IS NOT NULL THEN $5 ELSE $4 END"
                let rows = try await db.query("""
                    UPDATE jobs SET state = 'queued', run_at = \(runAt), last_error = $3, lease_owner = NULL,
                        lease_until = NULL, updated_at = $5, attempts = \(attempts), woken_at = NULL
                    \(lease)
                    """, .integer(id), .text(owner), .text(error), .integer(retryAt), .integer(now))
                return !rows.isEmpty
            }
            let rows = try await db.query("""
                UPDATE jobs SET state = 'dead', last_error = $3, lease_owner = NULL, lease_until = NULL, updated_at = $4
                \(lease)
                """, .integer(id), .text(owner), .text(error), .integer(now))
            guard let row = rows.first else { return false }
            try await Self.failNotification(of: row, error: error, in: db)
            return true
        }
    }

    @discardableResult
    func wakeNotificationJobs(originalTransactionId: String, now: Int64) async throws -> Int {
        // Queued jobs become runnable now; running ones are marked, so that if they end up waiting
        // they run again at once (a wake-up between their check and their requeue is not lost).
        // Only this app's: another app's subscription may share the original transaction id.
        let app = appValue
        return try await statement { db in
            try await db.query("""
                UPDATE jobs SET run_at = CASE WHEN state = 'queued' THEN $2 ELSE run_at END,
                    woken_at = CASE WHEN state = 'running' THEN $2 ELSE woken_at END
                WHERE app = $3 AND state IN ('queued', 'running') AND notification_uuid IN (
                    SELECT notification_uuid FROM notifications WHERE app = $3 AND original_transaction_id = $1)
                RETURNING id
                """, .text(originalTransactionId), .integer(now), app).count
        }
    }

    func renewLease(id: Int64, owner: String, until: Int64) async throws -> Bool {
        try await statement { db in
            try await !db.query("""
                UPDATE jobs SET lease_until = $3 WHERE id = $1 AND lease_owner = $2 AND state = 'running' RETURNING id
                """, .integer(id), .text(owner), .integer(until)).isEmpty
        }
    }

    /// Given-back jobs do not count the interrupted attempt (`attempts` goes back down by one).
    @discardableResult
    func releaseLeases(owner: String, now: Int64) async throws -> Int {
        try await transaction { db in
            try await db.query("""
                UPDATE jobs SET state = 'queued', lease_owner = NULL, lease_until = NULL, run_at = $2, updated_at = $2,
                    attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END
                WHERE lease_owner = $1 AND state = 'running'
                RETURNING id
                """, .text(owner), .integer(now)).count
        }
    }

    func job(id: Int64) async throws -> JobRecord? {
        try await self.statement { db in
            try await db.query("SELECT \(Self.jobColumns) FROM jobs WHERE id = $1", .integer(id)).first.map(Self.jobRecord)
        }
    }

    func jobs(state: JobState, limit: Int, apps: [String]?) async throws -> [JobRecord] {
        // `app IN ($3, $4, …)`: one placeholder per app (SQLite has no arrays).
        let only = apps.map { apps in
            " AND app IN (" + apps.indices.map { "$\($0 + 3)" }.joined(separator: ", ") + ")"
        } ?? ""
        let binds: [SQLValue] = [.text(state.rawValue), .integer(Int64(max(0, limit)))] + (apps ?? []).map(SQLValue.text)
        guard apps?.isEmpty != true else { return [] }
        return try await self.statement { db in
            try await db.query("SELECT \(Self.jobColumns) FROM jobs WHERE state = $1\(only) ORDER BY id DESC LIMIT $2", binds)
                .map(Self.jobRecord)
        }
    }

    func queueStatistics(now: Int64) async throws -> QueueStatistics {
        try await transaction { db in
            let rows = try await db.query("""
                SELECT kind,
                    COUNT(CASE WHEN state = 'queued' THEN 1 END) AS queued,
                    COUNT(CASE WHEN state = 'running' THEN 1 END) AS running,
                    COUNT(CASE WHEN state = 'dead' THEN 1 END) AS dead,
                    MIN(CASE WHEN state = 'queued' AND run_at <= $1 THEN run_at END) AS oldest_run_at
                FROM jobs WHERE state <> 'done'
                GROUP BY kind ORDER BY kind
                """, .integer(now))
            return QueueStatistics(kinds: try rows.map { row in
                QueueStatistics.Kind(
                    kind: try row.string("kind"),
                    queued: try row.int("queued"),
                    running: try row.int("running"),
                    dead: try row.int("dead"),
                    oldestQueuedAge: try row.optionalInt64("oldest_run_at").map { max(0, now - $0) } ?? 0)
            })
        }
    }

    static func jobRecord(_ row: SQLRow) throws -> JobRecord {
        let job = NewJob(
            kind: try row.string("kind"),
            payload: try row.string("payload"),
            notificationUUID: try row.optionalString("notification_uuid"),
            dedupeKey: try row.optionalString("dedupe_key"),
            runAt: try row.int64("run_at"),
            deadline: try row.optionalInt64("deadline"),
            maxAttempts: try row.int("max_attempts"),
            createdAt: try row.int64("created_at"),
            traceParent: try row.optionalString("trace_parent"))
        return JobRecord(
            id: try row.int64("id"), app: try row.string("app"), job: job,
            state: try row.enumValue("state", as: JobState.self),
            attempts: try row.int("attempts"),
            leaseOwner: try row.optionalString("lease_owner"),
            leaseUntil: try row.optionalInt64("lease_until"),
            lastError: try row.optionalString("last_error"),
            updatedAt: try row.int64("updated_at"))
    }

    private enum CompleteJobAndNotification: SQLStatement {
        static let sql = """
            WITH done AS (
                UPDATE jobs SET state = 'done', lease_owner = NULL, lease_until = NULL, updated_at = $3
                WHERE id = $1 AND lease_owner = $2 AND state = 'running'
                RETURNING notification_uuid, app
            ), processed AS (
                UPDATE notifications SET state = 'processed', result = $4, processed_at = $3,
                    processed_count = processed_count + 1
                WHERE (notification_uuid, app) IN (SELECT notification_uuid, app FROM done)
                RETURNING notification_uuid
            )
            SELECT COUNT(*) AS completed FROM done
            """
    }
}
