extension SQLRepository {
    static let notificationColumns = """
        n.notification_uuid, n.notification_type, n.subtype, n.environment, n.bundle_id,
        n.original_transaction_id, n.transaction_id, n.signed_date, n.received_at, n.source, n.signed_payload,
        n.decoded_json, n.state, n.job_id, n.result, n.processed_at, n.processed_count
        """

    /// A stored notification with its processing job's attempts and last error; the caller adds
    /// the conditions, the first of which must filter `n.app`.
    static let notificationSelect = """
        SELECT \(notificationColumns), j.attempts, j.last_error
        FROM notifications n LEFT JOIN jobs j ON j.id = n.job_id AND j.app = n.app
        WHERE
        """

    /// The columns a notification insert names, in the order of its values: `$1…$12` are the
    /// notification's fields, then its processing state (received, never processed) and its app.
    private static let notificationInsertColumns = """
        notification_uuid, notification_type, subtype, environment, bundle_id,
            original_transaction_id, transaction_id, signed_date, received_at, source, signed_payload,
            decoded_json, state, processed_count, app
        """

    /// Stores the notification as this app's. Its UUID is the key across apps (Apple's UUIDs are
    /// unique): a UUID another app already stored answers `.duplicate` too, and neither reveals
    /// nor changes that app's row.
    func insertNotification(_ notification: NewNotification, processingJob: NewJob) async throws -> NotificationInsertResult {
        var job = processingJob
        job.notificationUUID = notification.notificationUUID
        if backend == .postgres { return try await insertNotificationInOneStatement(notification, job) }
        let app = self.app
        return try await transaction { [job] db in
            let inserted = try await db.query("""
                INSERT INTO notifications (\(Self.notificationInsertColumns))
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'received', 0, $13)
                ON CONFLICT (notification_uuid) DO NOTHING
                RETURNING notification_uuid
                """, Self.notificationBinds(notification) + [.text(app)])
            guard !inserted.isEmpty else { return .duplicate }
            let enqueued = try await Self.enqueue(job, app: app, in: db)
            try await db.execute("UPDATE notifications SET job_id = $1 WHERE notification_uuid = $2 AND app = $3",
                                 .integer(enqueued.id), .text(notification.notificationUUID), .text(app))
            return .inserted(jobId: enqueued.id)
        }
    }

    /// `$1…$12` of a notification insert.
    private static func notificationBinds(_ notification: NewNotification) -> [SQLValue] {
        [
            .text(notification.notificationUUID), .text(notification.notificationType), SQLValue(notification.subtype),
            SQLValue(notification.environment), SQLValue(notification.bundleId),
            SQLValue(notification.originalTransactionId), SQLValue(notification.transactionId),
            .integer(notification.signedDate), .integer(notification.receivedAt), .text(notification.source.rawValue),
            .text(notification.signedPayload), .text(notification.decodedJSON),
        ]
    }

    /// PostgreSQL: the notification and its processing job in one statement (one round trip, one
    /// commit). The job's id is drawn first so the notification row carries it; a duplicate
    /// `notificationUUID` inserts neither (the drawn id is simply unused).
    private func insertNotificationInOneStatement(_ notification: NewNotification, _ job: NewJob) async throws
        -> NotificationInsertResult
    {
        let binds = Self.notificationBinds(notification) + [
            .text(job.kind), .text(job.payload), SQLValue(job.dedupeKey), .integer(job.runAt), SQLValue(job.deadline),
            .integer(Int64(job.maxAttempts)), .integer(job.createdAt), appValue, SQLValue(job.traceParent),
        ]
        return try await statement { db in
            let rows = try await db.query(prepared: InsertNotificationAndJob.self, binds)
            guard let row = rows.first else { return .duplicate }
            return .inserted(jobId: try row.int64("id"))
        }
    }

    func notification(uuid: String) async throws -> NotificationRecord? {
        let app = appValue
        return try await self.statement { db in
            try await db.query(NotificationByUUID.self, .text(uuid), app).first.map(Self.notificationRecord)
        }
    }

    func notifications(originalTransactionId: String, limit: Int) async throws -> [NotificationRecord] {
        let app = appValue
        return try await self.statement { db in
            try await db.query("""
                \(Self.notificationSelect) n.app = $3 AND n.original_transaction_id = $1
                ORDER BY n.signed_date DESC, n.notification_uuid DESC LIMIT $2
                """, .text(originalTransactionId), .integer(Int64(max(1, limit))), app).map(Self.notificationRecord)
        }
    }

    func newestNotificationSignedDate() async throws -> Int64? {
        let app = appValue
        return try await self.statement { db in
            try await db.query("SELECT MAX(signed_date) AS newest FROM notifications WHERE app = $1", app)
                .first?.optionalInt64("newest")
        }
    }

    func notificationCount() async throws -> Int {
        let app = appValue
        return try await self.statement { db in
            try await db.query("SELECT COUNT(*) AS n FROM notifications WHERE app = $1", app).first?.int("n") ?? 0
        }
    }

    static func notificationRecord(_ row: SQLRow) throws -> NotificationRecord {
        let notification = NewNotification(
            notificationUUID: try row.string("notification_uuid"),
            notificationType: try row.string("notification_type"),
            subtype: try row.optionalString("subtype"),
            environment: try row.optionalString("environment"),
            bundleId: try row.optionalString("bundle_id"),
            originalTransactionId: try row.optionalString("original_transaction_id"),
            transactionId: try row.optionalString("transaction_id"),
            signedDate: try row.int64("signed_date"),
            receivedAt: try row.int64("received_at"),
            source: try row.enumValue("source", as: NotificationSource.self),
            signedPayload: try row.string("signed_payload"),
            decodedJSON: try row.string("decoded_json"))
        return NotificationRecord(
            notification: notification,
            state: try row.enumValue("state", as: NotificationProcessingState.self),
            jobId: try row.optionalInt64("job_id"),
            attempts: Int(try row.optionalInt64("attempts") ?? 0),
            result: try row.optionalString("result"),
            lastError: try row.optionalString("last_error"),
            processedAt: try row.optionalInt64("processed_at"),
            processedCount: try row.int("processed_count"))
    }

    private enum InsertNotificationAndJob: SQLStatement {
        static let sql = """
            WITH drawn AS (SELECT nextval(pg_get_serial_sequence('jobs', 'id')) AS id),
            stored AS (
                INSERT INTO notifications (\(SQLRepository.notificationInsertColumns), job_id)
                -- Nulls bound without a type would read as text: integer parameters are cast.
                SELECT $1, $2, $3, $4, $5, $6, $7, $8::BIGINT, $9::BIGINT, $10, $11, $12, 'received', 0, $20, drawn.id
                FROM drawn
                ON CONFLICT (notification_uuid) DO NOTHING
                RETURNING notification_uuid, job_id, app
            )
            INSERT INTO jobs (id, app, kind, payload, notification_uuid, dedupe_key, state, run_at, deadline, max_attempts,
                attempts, created_at, updated_at, trace_parent)
            SELECT stored.job_id, stored.app, $13, $14, stored.notification_uuid, $15, 'queued', $16::BIGINT, $17::BIGINT,
                $18::BIGINT, 0, $19::BIGINT, $19::BIGINT, $21::TEXT
            FROM stored
            RETURNING id
            """
    }

    private enum NotificationByUUID: SQLStatement {
        static let sql = "\(SQLRepository.notificationSelect) n.notification_uuid = $1 AND n.app = $2"
    }
}
