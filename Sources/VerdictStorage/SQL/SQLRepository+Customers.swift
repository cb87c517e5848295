extension SQLRepository {
    // MARK: Customers

    /// Links `link` as `app`'s customer and returns the customer's history revision.
    @discardableResult
    static func linkCustomer(_ link: CustomerLink, app: String, in db: any SQLExecutor) async throws -> String? {
        // A newer non-nil identifier replaces the stored one; nil never erases one.
        try await db.query(
            LinkCustomer.self,
            .text(link.originalTransactionId), SQLValue(link.appAccountToken), SQLValue(link.appTransactionId),
            SQLValue(link.environment), .integer(link.seenAt), .text(app)).first?.optionalString("history_revision")
    }

    private static let customerColumns = """
        original_transaction_id, app_account_token, app_transaction_id, environment, first_seen_at,
        history_revision, history_synced_at
        """

    func customer(originalTransactionId: String) async throws -> CustomerRecord? {
        let app = appValue
        return try await self.statement { db in
            try await db.query(CustomerByOriginalTransactionId.self, .text(originalTransactionId), app)
                .first.map(Self.customerRecord)
        }
    }

    func customers(appAccountToken: String) async throws -> [CustomerRecord] {
        let app = appValue
        return try await self.statement { db in
            try await db.query("""
                SELECT \(Self.customerColumns) FROM customers WHERE app = $2 AND app_account_token = $1
                ORDER BY first_seen_at, original_transaction_id
                """, .text(appAccountToken), app).map(Self.customerRecord)
        }
    }

    func recordHistorySync(originalTransactionId: String, revision: String?, complete: Bool, at: Int64) async throws {
        let app = appValue
        try await self.statement { db in
            try await db.execute("""
                INSERT INTO customers (app, original_transaction_id, first_seen_at, history_revision, history_synced_at)
                VALUES ($5, $1, $2, $3, CASE WHEN $4 = 1 THEN $2 END)
                ON CONFLICT (app, original_transaction_id) DO UPDATE SET
                    history_revision = COALESCE(excluded.history_revision, customers.history_revision),
                    history_synced_at = COALESCE(excluded.history_synced_at, customers.history_synced_at)
                """, .text(originalTransactionId), .integer(at), SQLValue(revision), .integer(complete ? 1 : 0), app)
        }
    }

    private static func customerRecord(_ row: SQLRow) throws -> CustomerRecord {
        CustomerRecord(
            originalTransactionId: try row.string("original_transaction_id"),
            appAccountToken: try row.optionalString("app_account_token"),
            appTransactionId: try row.optionalString("app_transaction_id"),
            environment: try row.optionalString("environment"),
            firstSeenAt: try row.int64("first_seen_at"),
            historyRevision: try row.optionalString("history_revision"),
            historySyncedAt: try row.optionalInt64("history_synced_at"))
    }

    private enum LinkCustomer: SQLStatement {
        static let sql = StateWriteSQL.customerInsert + " VALUES ($1, $2, $3, $4, $5, $6)\n" + StateWriteSQL.customerUpsert
    }

    private enum CustomerByOriginalTransactionId: SQLStatement {
        static let sql = "SELECT \(SQLRepository.customerColumns) FROM customers WHERE app = $2 AND original_transaction_id = $1"
    }
}
