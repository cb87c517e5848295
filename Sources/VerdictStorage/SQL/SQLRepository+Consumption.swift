import Foundation

extension SQLRepository {
    // MARK: Consumption requests, attempts and outcomes
    //
    // Requests belong to an app: every statement reads and changes only this repository's app's
    // requests. Attempts have no app of their own: they are reached through their request, and
    // recorded only for a request of this app.

    /// The columns of a request (without `app`, which each statement binds itself).
    static let consumptionColumns = """
        id, notification_uuid, transaction_id, original_transaction_id, app_account_token, environment, reason,
        requested_at, deadline, decided_at, bundle_hash, rule_id, rule_line, blocked_by,
        consent_basis, state, body, record_json, sent_at, last_error, outcome, outcome_at, outcomes_json, repeats_json
        """

    func insertConsumptionRequest(_ record: ConsumptionRequestRecord, submission: NewJob?) async throws
        -> ConsumptionRequestInsertResult
    {
        try await transaction { [app, appValue] db in
            let columns = Self.consumptionColumns
            if let decided = try await db.query(
                "SELECT \(columns) FROM consumption_requests WHERE app = $1 AND notification_uuid = $2",
                appValue, .text(record.notificationUUID)
            ).first {
                return .alreadyDecided(try Self.consumptionRecord(decided))
            }
            if let open = try await db.query("""
                SELECT \(columns) FROM consumption_requests
                WHERE app = $1 AND transaction_id = $2 AND state IN ('pending', 'sent')
                """, appValue, .text(record.transactionId)).first {
                var answered = try Self.consumptionRecord(open)
                var repeats = JSONArrayText(answered.repeats)
                repeats.append(["notificationUUID": record.notificationUUID, "requestedAt": record.requestedAt])
                answered.repeats = repeats.text
                try await db.execute(
                    "UPDATE consumption_requests SET repeats_json = $2 WHERE id = $1 AND app = $3",
                    .text(answered.id), .text(answered.repeats), appValue)
                return .repeated(answered)
            }
            _ = try await db.query("""
                INSERT INTO consumption_requests (\(columns), app)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
                    $22, $23, $24, $25)
                """, Self.consumptionBinds(record) + [appValue])
            if record.state == .pending, let submission {
                _ = try await Self.enqueue(submission, app: app, in: db)
            }
            return .inserted(record)
        }
    }

    func consumptionRequest(id: String) async throws -> ConsumptionRequestRecord? {
        try await transaction { [appValue] db in
            try await db.query(
                "SELECT \(Self.consumptionColumns) FROM consumption_requests WHERE id = $1 AND app = $2", .text(id), appValue
            ).first.map(Self.consumptionRecord)
        }
    }

    func consumptionRequests(transactionId: String) async throws -> [ConsumptionRequestRecord] {
        try await transaction { [appValue] db in
            try await db.query("""
                SELECT \(Self.consumptionColumns) FROM consumption_requests WHERE app = $1 AND transaction_id = $2
                ORDER BY requested_at DESC, decided_at DESC, id DESC
                """, appValue, .text(transactionId)).map(Self.consumptionRecord)
        }
    }

    func recentConsumptionRequests(limit: Int) async throws -> [ConsumptionRequestRecord] {
        try await transaction { [appValue] db in
            try await db.query("""
                SELECT \(Self.consumptionColumns) FROM consumption_requests WHERE app = $1
                ORDER BY decided_at DESC, id DESC LIMIT $2
                """, appValue, .integer(Int64(max(1, limit)))).map(Self.consumptionRecord)
        }
    }

    func updateConsumptionSubmission(id: String, state: ConsumptionRequestRecord.State, attempt: ConsumptionAttemptRecord?,
                                     lastError: String?, at: Int64) async throws -> Bool {
        try await transaction { [appValue] db in
            let updated = try await db.query("""
                UPDATE consumption_requests
                SET state = $2, last_error = $3, sent_at = CASE WHEN $2 = 'sent' THEN $4 ELSE sent_at END,
                    sending_attempt = NULL, sending_since = NULL
                WHERE id = $1 AND app = $5 AND state = 'pending'
                RETURNING id
                """, .text(id), .text(state.rawValue), SQLValue(lastError), .integer(at), appValue)
            guard !updated.isEmpty else { return false }
            if let attempt { try await Self.insertAttempt(attempt, requestId: id, app: appValue, in: db) }
            return true
        }
    }

    /// Records `attempt` for the request `requestId` of `app`. The callers found the request in
    /// this app first; the request id is still looked up with the app, so an attempt for another
    /// app's request fails (its `request_id` would be NULL) rather than being stored.
    private static func insertAttempt(_ attempt: ConsumptionAttemptRecord, requestId: String, app: SQLValue,
                                      in db: any SQLExecutor) async throws {
        try await db.execute("""
            INSERT INTO consumption_attempts (request_id, attempt, attempted_at, http_status, error_code,
                error_message, result, retry_at)
            VALUES ((SELECT id FROM consumption_requests WHERE id = $1 AND app = $9), $2, $3, $4, $5, $6, $7, $8)
            """, .text(requestId), .integer(Int64(attempt.attempt)), .integer(attempt.at), SQLValue(attempt.httpStatus),
            SQLValue(attempt.errorCode), SQLValue(attempt.errorMessage), .text(attempt.result.rawValue),
            SQLValue(attempt.retryAt), app)
    }

    func markConsumptionAttemptInFlight(id: String, attempt: Int, at: Int64) async throws -> Bool {
        try await statement { [appValue] db in
            try await !db.query("""
                UPDATE consumption_requests SET sending_attempt = $2, sending_since = $3
                WHERE id = $1 AND app = $4 AND state = 'pending'
                RETURNING id
                """, .text(id), .integer(Int64(attempt)), .integer(at), appValue).isEmpty
        }
    }

    func resolveInterruptedConsumptionAttempt(id: String) async throws -> ConsumptionAttemptRecord? {
        try await transaction { [appValue] db in
            guard let row = try await db.query("""
                SELECT sending_attempt, sending_since FROM consumption_requests
                WHERE id = $1 AND app = $2 AND sending_attempt IS NOT NULL
                """, .text(id), appValue).first else { return nil }
            let number = try row.int64("sending_attempt")
            // Cleared by this transaction only if no other resolved it meanwhile (PostgreSQL re-checks
            // the condition on the locked row).
            guard try await !db.query("""
                UPDATE consumption_requests SET sending_attempt = NULL, sending_since = NULL
                WHERE id = $1 AND app = $3 AND sending_attempt = $2
                RETURNING id
                """, .text(id), .integer(number), appValue).isEmpty else { return nil }
            let attempt = ConsumptionAttemptRecord(
                attempt: Int(number), at: try row.int64("sending_since"), httpStatus: nil, errorCode: nil,
                errorMessage: ConsumptionAttemptRecord.outcomeUnknown, result: .retry, retryAt: nil)
            try await Self.insertAttempt(attempt, requestId: id, app: appValue, in: db)
            return attempt
        }
    }

    func consumptionAttempts(requestId: String) async throws -> [ConsumptionAttemptRecord] {
        try await transaction { [appValue] db in
            try await db.query("""
                SELECT a.attempt, a.attempted_at, a.http_status, a.error_code, a.error_message, a.result, a.retry_at
                FROM consumption_attempts a JOIN consumption_requests r ON r.id = a.request_id
                WHERE a.request_id = $1 AND r.app = $2 ORDER BY a.attempt, a.id
                """, .text(requestId), appValue).map { row in
                ConsumptionAttemptRecord(
                    attempt: try row.int("attempt"), at: try row.int64("attempted_at"),
                    httpStatus: try row.optionalInt64("http_status").map(Int.init), errorCode: try row.optionalInt64("error_code"),
                    errorMessage: try row.optionalString("error_message"),
                    result: try row.enumValue("result", as: ConsumptionAttemptRecord.Result.self),
                    retryAt: try row.optionalInt64("retry_at"))
            }
        }
    }

    func recordConsumptionOutcome(transactionId: String, outcome: String, detail: String, notificationUUID: String,
                                  at: Int64) async throws -> Bool {
        try await transaction { [appValue] db in
            guard let row = try await db.query("""
                SELECT id, outcomes_json FROM consumption_requests WHERE app = $1 AND transaction_id = $2
                ORDER BY requested_at DESC, decided_at DESC, id DESC LIMIT 1
                """, appValue, .text(transactionId)).first
            else { return false }
            var outcomes = JSONArrayText(try row.string("outcomes_json"))
            guard !outcomes.contains(key: "notificationUUID", value: notificationUUID) else { return false }
            var entry = JSONArrayText.object(detail)
            entry["type"] = outcome
            entry["at"] = at
            entry["notificationUUID"] = notificationUUID
            outcomes.append(entry)
            try await db.execute("""
                UPDATE consumption_requests SET outcome = $2, outcome_at = $3, outcomes_json = $4 WHERE id = $1 AND app = $5
                """, .text(try row.string("id")), .text(outcome), .integer(at), .text(outcomes.text), appValue)
            return true
        }
    }

    /// The values of `consumptionColumns` for `record`, in order.
    static func consumptionBinds(_ record: ConsumptionRequestRecord) -> [SQLValue] {
        [.text(record.id), .text(record.notificationUUID), .text(record.transactionId),
         .text(record.originalTransactionId), SQLValue(record.appAccountToken), SQLValue(record.environment),
         SQLValue(record.reason), .integer(record.requestedAt), .integer(record.deadline), .integer(record.decidedAt),
         SQLValue(record.bundleHash), SQLValue(record.ruleId), SQLValue(record.ruleLine), SQLValue(record.blockedBy),
         .text(record.consentBasis.rawValue), .text(record.state.rawValue),
         SQLValue(record.body), .text(record.json), SQLValue(record.sentAt), SQLValue(record.lastError),
         SQLValue(record.outcome), SQLValue(record.outcomeAt), .text(record.outcomes), .text(record.repeats)]
    }

    static func consumptionRecord(_ row: SQLRow) throws -> ConsumptionRequestRecord {
        ConsumptionRequestRecord(
            id: try row.string("id"), notificationUUID: try row.string("notification_uuid"),
            transactionId: try row.string("transaction_id"), originalTransactionId: try row.string("original_transaction_id"),
            appAccountToken: try row.optionalString("app_account_token"), environment: try row.optionalString("environment"),
            reason: try row.optionalString("reason"), requestedAt: try row.int64("requested_at"),
            deadline: try row.int64("deadline"), decidedAt: try row.int64("decided_at"),
            bundleHash: try row.optionalString("bundle_hash"), ruleId: try row.optionalString("rule_id"),
            ruleLine: try row.optionalInt64("rule_line").map(Int.init), blockedBy: try row.optionalString("blocked_by"),
            consentBasis: try row.enumValue("consent_basis", as: ConsumptionRequestRecord.ConsentBasis.self),
            state: try row.enumValue("state", as: ConsumptionRequestRecord.State.self), body: try row.optionalString("body"),
            json: try row.string("record_json"), sentAt: try row.optionalInt64("sent_at"),
            lastError: try row.optionalString("last_error"), outcome: try row.optionalString("outcome"),
            outcomeAt: try row.optionalInt64("outcome_at"), outcomes: try row.string("outcomes_json"),
            repeats: try row.string("repeats_json"))
    }
}
