extension SQLRepository {
    static let notificationColumns = """
        n.notification_uuid, n.notification_type, n.subtype, n.environment, n.bundle_id,
        n.original_transaction_id, n.transaction_id, n.signed_date, n.received_at, n.source, n.signed_payload,
        n.decoded_json, n.state, n.job_id, n.result, n.processed_at, n.processed_count
        """

    func insertNotification(_ notification: NewNotification, processingJob: NewJob) async throws -> NotificationInsertResult {
        var job = processingJob
        job.notificationUUID = notification.notificationUUID
        return try await transaction { [job] db in
            let inserted = try await db.query("""
                INSERT INTO notifications (notification_uuid, notification_type, subtype, environment, bundle_id,
                    original_transaction_id, transaction_id, signed_date, received_at, source, signed_payload,
                    decoded_json, state, processed_count)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'received', 0)
                ON CONFLICT (notification_uuid) DO NOTHING
                RETURNING notification_uuid
                """,
                .text(notification.notificationUUID), .text(notification.notificationType), SQLValue(notification.subtype),
                SQLValue(notification.environment), SQLValue(notification.bundleId),
                SQLValue(notification.originalTransactionId), SQLValue(notification.transactionId),
                .integer(notification.signedDate), .integer(notification.receivedAt), .text(notification.source.rawValue),
                .text(notification.signedPayload), .text(notification.decodedJSON))
            guard !inserted.isEmpty else { return .duplicate }
            let enqueued = try await Self.enqueue(job, in: db)
            try await db.execute("UPDATE notifications SET job_id = $1 WHERE notification_uuid = $2",
                                 .integer(enqueued.id), .text(notification.notificationUUID))
            return .inserted(jobId: enqueued.id)
        }
    }

    func notification(uuid: String) async throws -> NotificationRecord? {
        try await transaction { db in
            try await db.query("""
                SELECT \(Self.notificationColumns), j.attempts, j.last_error
                FROM notifications n LEFT JOIN jobs j ON j.id = n.job_id
                WHERE n.notification_uuid = $1
                """, .text(uuid)).first.map(Self.notificationRecord)
        }
    }

    func newestNotificationSignedDate() async throws -> Int64? {
        try await transaction { db in
            try await db.query("SELECT MAX(signed_date) AS newest FROM notifications").first?.optionalInt64("newest")
        }
    }

    func notificationCount() async throws -> Int {
        try await transaction { db in
            try await db.query("SELECT COUNT(*) AS n FROM notifications").first?.int("n") ?? 0
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
}
