extension SQLRepository {
    // MARK: Bulk import of stored decisions

    /// Bound values per statement: below SQLite's limit (32,766) and PostgreSQL's (65,535).
    static let importBindsPerStatement = 30_000

    func importOfferDecisions(_ records: [OfferDecisionRecord]) async throws {
        try await importRows(into: "offer_decisions", columns: Self.decisionColumns, records.map(Self.decisionBinds))
    }

    func importConsumptionRequests(_ records: [ConsumptionRequestRecord]) async throws {
        try await importRows(into: "consumption_requests", columns: Self.consumptionColumns, records.map(Self.consumptionBinds))
    }

    func importNotifications(_ notifications: [NewNotification]) async throws {
        try await importRows(into: "notifications", columns: """
            notification_uuid, notification_type, subtype, environment, bundle_id, original_transaction_id, transaction_id,
            signed_date, received_at, source, signed_payload, decoded_json, state, processed_at, processed_count
            """, notifications.map { notification in
                [.text(notification.notificationUUID), .text(notification.notificationType), SQLValue(notification.subtype),
                 SQLValue(notification.environment), SQLValue(notification.bundleId), SQLValue(notification.originalTransactionId),
                 SQLValue(notification.transactionId), .integer(notification.signedDate), .integer(notification.receivedAt),
                 .text(notification.source.rawValue), .text(notification.signedPayload), .text(notification.decodedJSON),
                 .text("processed"), .integer(notification.receivedAt), .integer(1)]
            })
    }

    func importTransactions(_ transactions: [TransactionRecord]) async throws {
        try await importRows(into: "transactions", columns: Self.transactionColumns, transactions.map { transaction in
            [.text(transaction.transactionId), .text(transaction.originalTransactionId), .text(transaction.productId),
             SQLValue(transaction.appAccountToken), SQLValue(transaction.environment), SQLValue(transaction.purchaseDate),
             SQLValue(transaction.revocationDate), .integer(transaction.signedDate), .text(transaction.decodedJSON)]
        })
    }

    func importCustomers(_ customers: [CustomerRecord]) async throws {
        try await importRows(into: "customers", columns: """
            original_transaction_id, app_account_token, app_transaction_id, environment, first_seen_at, history_revision,
            history_synced_at
            """, customers.map { customer in
                [.text(customer.originalTransactionId), SQLValue(customer.appAccountToken), SQLValue(customer.appTransactionId),
                 SQLValue(customer.environment), .integer(customer.firstSeenAt), SQLValue(customer.historyRevision),
                 SQLValue(customer.historySyncedAt)]
            })
    }

    func importRenewalInfo(_ records: [RenewalInfoRecord]) async throws {
        try await importRows(
            into: "renewal_info", columns: "original_transaction_id, product_id, auto_renew_status, environment, signed_date, decoded_json",
            records.map { record in
                [.text(record.originalTransactionId), SQLValue(record.productId), SQLValue(record.autoRenewStatus.map(Int64.init)),
                 SQLValue(record.environment), .integer(record.signedDate), .text(record.decodedJSON)]
            })
    }

    func refreshStatistics() async throws {
        // SQLite is left as the service leaves it (never analyzed): its planner then trusts the
        // indexes, while sqlite_stat1's per-index averages (e.g. every app_account_token NULL)
        // would make it scan the customers and transactions of a customer look-up.
        guard backend == .postgres else { return }
        try await statement { db in try await db.execute("ANALYZE") }
    }

    /// Inserts `rows` (each the values of `columns`, in order) with the repository's app in one
    /// transaction, as many rows per statement as the bind limit allows; rows that conflict with
    /// one stored (for this app, where the key has the app) are skipped.
    private func importRows(into table: String, columns: String, _ rows: [[SQLValue]]) async throws {
        let app = appValue
        let rows = rows.map { [app] + $0 }
        let columns = "app, " + columns
        guard let width = rows.first?.count else { return }
        let perStatement = max(1, Self.importBindsPerStatement / width)
        try await transaction { db in
            var start = 0
            while start < rows.count {
                let end = min(rows.count, start + perStatement)
                _ = try await db.query(
                    Self.multiRowInsert(into: table, columns: columns, width: width, rows: end - start),
                    Array(rows[start..<end].joined()))
                start = end
            }
        }
    }

    /// `INSERT INTO table (columns) VALUES ($1, …), (…) ON CONFLICT DO NOTHING` for `rows` rows.
    static func multiRowInsert(into table: String, columns: String, width: Int, rows: Int) -> String {
        var sql = "INSERT INTO \(table) (\(columns)) VALUES "
        sql.reserveCapacity(sql.utf8.count + rows * width * 7)
        for row in 0..<rows {
            sql += row == 0 ? "(" : ", ("
            for column in 0..<width {
                if column > 0 { sql += ", " }
                sql += "$\(row * width + column + 1)"
            }
            sql += ")"
        }
        return sql + " ON CONFLICT DO NOTHING"
    }
}
