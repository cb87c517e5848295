extension SQLRepository {
    static let replayColumns = """
        id, state, candidate_hash, request_json, created_at, started_at, finished_at, progress_done, progress_total,
        report_json, error
        """

    func createReplay(_ replay: RuleReplayRecord, job: NewJob) async throws {
        let app = self.app
        try await transaction { db in
            try await db.execute("""
                INSERT INTO rule_replays (\(Self.replayColumns), app)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                """,
                .text(replay.id), .text(replay.state.rawValue), .text(replay.candidateHash), .text(replay.request),
                .integer(replay.createdAt), SQLValue(replay.startedAt), SQLValue(replay.finishedAt),
                .integer(Int64(replay.progressDone)), .integer(Int64(replay.progressTotal)), SQLValue(replay.report),
                SQLValue(replay.error), .text(app))
            _ = try await Self.enqueue(job, app: app, in: db)
        }
    }

    func replay(id: String) async throws -> RuleReplayRecord? {
        let app = appValue
        return try await statement { db in try await Self.replay(id: id, app: app, in: db) }
    }

    func replays(limit: Int) async throws -> [RuleReplayRecord] {
        let app = appValue
        return try await statement { db in
            try await db.query(
                "SELECT \(Self.replayColumns) FROM rule_replays WHERE app = $2 ORDER BY created_at DESC, id DESC LIMIT $1",
                .integer(Int64(max(1, limit))), app
            ).map(Self.replayRecord)
        }
    }

    func startReplay(id: String, total: Int, at: Int64) async throws -> Bool {
        let app = appValue
        return try await statement { db in
            try await !db.query("""
                UPDATE rule_replays SET state = 'running', started_at = $2, progress_done = 0, progress_total = $3
                WHERE id = $1 AND app = $4 AND state IN ('queued', 'running') RETURNING id
                """, .text(id), .integer(at), .integer(Int64(total)), app).isEmpty
        }
    }

    func updateReplayProgress(id: String, done: Int, at: Int64) async throws -> Bool {
        let app = appValue
        return try await statement { db in
            try await !db.query(
                "UPDATE rule_replays SET progress_done = $2 WHERE id = $1 AND app = $3 AND state = 'running' RETURNING id",
                .text(id), .integer(Int64(done)), app).isEmpty
        }
    }

    func finishReplay(id: String, state: RuleReplayRecord.State, report: String?, error: String?, at: Int64) async throws -> Bool {
        let app = appValue
        return try await statement { db in
            try await !db.query("""
                UPDATE rule_replays SET state = $2, report_json = $3, error = $4, finished_at = $5,
                    progress_done = CASE WHEN $2 = 'done' THEN progress_total ELSE progress_done END
                WHERE id = $1 AND app = $6 AND state IN ('queued', 'running') RETURNING id
                """, .text(id), .text(state.rawValue), SQLValue(report), SQLValue(error), .integer(at), app).isEmpty
        }
    }

    func cancelReplay(id: String, at: Int64) async throws -> RuleReplayRecord? {
        let app = appValue
        return try await transaction { db in
            try await db.execute("""
                UPDATE rule_replays SET state = 'cancelled', finished_at = $2
                WHERE id = $1 AND app = $3 AND state IN ('queued', 'running')
                """, .text(id), .integer(at), app)
            return try await Self.replay(id: id, app: app, in: db)
        }
    }

    /// The replay with `id` of `app`.
    private static func replay(id: String, app: SQLValue, in db: any SQLExecutor) async throws -> RuleReplayRecord? {
        try await db.query("SELECT \(replayColumns) FROM rule_replays WHERE id = $1 AND app = $2", .text(id), app)
            .first.map(replayRecord)
    }

    static func replayRecord(_ row: SQLRow) throws -> RuleReplayRecord {
        RuleReplayRecord(
            id: try row.string("id"), state: try row.enumValue("state", as: RuleReplayRecord.State.self),
            candidateHash: try row.string("candidate_hash"), request: try row.string("request_json"),
            createdAt: try row.int64("created_at"), startedAt: try row.optionalInt64("started_at"),
            finishedAt: try row.optionalInt64("finished_at"), progressDone: try row.int("progress_done"),
            progressTotal: try row.int("progress_total"), report: try row.optionalString("report_json"),
            error: try row.optionalString("error"))
    }
}
