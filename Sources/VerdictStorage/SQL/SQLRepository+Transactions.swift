extension SQLRepository {
    // MARK: Transactions and renewal info (forward-only by signedDate)

    @discardableResult
    func recordTransaction(_ transaction: TransactionRecord) async throws -> Bool {
        let app = self.app
        return try await self.statement { db in try await Self.recordTransaction(transaction, app: app, in: db) }
    }

    /// Stores `transaction` as `app`'s (forward-only in `signedDate`, per app and transaction id).
    static func recordTransaction(_ transaction: TransactionRecord, app: String, in db: any SQLExecutor) async throws -> Bool {
        try await !db.query(
            RecordTransaction.self,
            .text(transaction.transactionId), .text(transaction.originalTransactionId), .text(transaction.productId),
            SQLValue(transaction.appAccountToken), SQLValue(transaction.environment),
            SQLValue(transaction.purchaseDate), SQLValue(transaction.revocationDate),
            .integer(transaction.signedDate), .text(transaction.decodedJSON), .text(app)).isEmpty
    }

    /// Stores `renewalInfo` as `app`'s (forward-only in `signedDate`, per app and original transaction id).
    static func recordRenewalInfo(_ renewalInfo: RenewalInfoRecord, app: String, in db: any SQLExecutor) async throws -> Bool {
        try await !db.query(
            RecordRenewalInfo.self,
            .text(renewalInfo.originalTransactionId), SQLValue(renewalInfo.productId),
            SQLValue(renewalInfo.autoRenewStatus), SQLValue(renewalInfo.environment),
            .integer(renewalInfo.signedDate), .text(renewalInfo.decodedJSON), .text(app)).isEmpty
    }

    static let transactionColumns = """
        transaction_id, original_transaction_id, product_id, app_account_token, environment, purchase_date,
        revocation_date, signed_date, decoded_json
        """

    func transaction(id: String) async throws -> TransactionRecord? {
        try await transactions(where: "transaction_id = $1", .text(id)).first
    }

    func transactions(originalTransactionId: String) async throws -> [TransactionRecord] {
        try await transactions(where: "original_transaction_id = $1", .text(originalTransactionId))
    }

    func transactions(appAccountToken: String) async throws -> [TransactionRecord] {
        try await transactions(where: "app_account_token = $1", .text(appAccountToken))
    }

    /// This app's transactions matching `condition` (on `$1`; the app is `$2`), oldest purchase first.
    private func transactions(where condition: String, _ value: SQLValue) async throws -> [TransactionRecord] {
        let app = appValue
        return try await self.statement { db in
            try await db.query("""
                SELECT \(Self.transactionColumns) FROM transactions WHERE app = $2 AND \(condition)
                ORDER BY CASE WHEN purchase_date IS NULL THEN 1 ELSE 0 END, purchase_date, transaction_id
                """, value, app).map(Self.transactionRecord)
        }
    }

    func customerTransactions(originalTransactionId: String) async throws -> [TransactionRecord] {
        // One statement of index lookups (no OR across columns, which would scan the table); every
        // table read is this app's (`$2`): another app's customer may share the identifiers.
        let app = appValue
        return try await self.statement { db in
            try await db.query("""
                SELECT * FROM (
                    SELECT \(Self.transactionColumns) FROM transactions WHERE app = $2 AND original_transaction_id IN (
                        SELECT CAST($1 AS TEXT)
                        UNION SELECT other.original_transaction_id FROM customers AS this
                            JOIN customers AS other ON other.app = this.app AND other.app_account_token = this.app_account_token
                            WHERE this.app = $2 AND this.original_transaction_id = $1
                        UNION SELECT other.original_transaction_id FROM customers AS this
                            JOIN customers AS other ON other.app = this.app AND other.app_transaction_id = this.app_transaction_id
                            WHERE this.app = $2 AND this.original_transaction_id = $1)
                    UNION
                    SELECT \(Self.transactionColumns) FROM transactions WHERE app = $2 AND app_account_token = (
                        SELECT app_account_token FROM customers WHERE app = $2 AND original_transaction_id = $1)
                ) AS customer_transactions
                ORDER BY CASE WHEN purchase_date IS NULL THEN 1 ELSE 0 END, purchase_date, transaction_id
                """, .text(originalTransactionId), app).map(Self.transactionRecord)
        }
    }

    func renewalInfo(originalTransactionId: String) async throws -> RenewalInfoRecord? {
        let app = appValue
        return try await self.statement { db in
            guard let row = try await db.query("""
                SELECT original_transaction_id, product_id, auto_renew_status, environment, signed_date, decoded_json
                FROM renewal_info WHERE app = $2 AND original_transaction_id = $1
                """, .text(originalTransactionId), app).first else { return nil }
            return RenewalInfoRecord(
                originalTransactionId: try row.string("original_transaction_id"),
                productId: try row.optionalString("product_id"),
                autoRenewStatus: try row.optionalInt64("auto_renew_status").map { Int($0) },
                environment: try row.optionalString("environment"),
                signedDate: try row.int64("signed_date"),
                decodedJSON: try row.string("decoded_json"))
        }
    }

    static func transactionRecord(_ row: SQLRow) throws -> TransactionRecord {
        TransactionRecord(
            transactionId: try row.string("transaction_id"),
            originalTransactionId: try row.string("original_transaction_id"),
            productId: try row.string("product_id"),
            appAccountToken: try row.optionalString("app_account_token"),
            environment: try row.optionalString("environment"),
            purchaseDate: try row.optionalInt64("purchase_date"),
            revocationDate: try row.optionalInt64("revocation_date"),
            signedDate: try row.int64("signed_date"),
            decodedJSON: try row.string("decoded_json"))
    }

    private enum RecordTransaction: SQLStatement {
        static let sql = StateWriteSQL.transactionInsert + " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)\n"
            + StateWriteSQL.transactionUpsert
    }

    private enum RecordRenewalInfo: SQLStatement {
        static let sql = StateWriteSQL.renewalInfoInsert + " VALUES ($1, $2, $3, $4, $5, $6, $7)\n"
            + StateWriteSQL.renewalInfoUpsert
    }
}

/// The writes a notification makes, each as its `INSERT` head and the `ON CONFLICT` tail that
/// carries its rule — transactions and renewal info move forward only in `signedDate`; a customer
/// link fills in identifiers and never erases one — shared by the single statements and the
/// one-statement `recordNotificationState`. Each insert names `app` last, and each conflict is on
/// the app and the row's key: two apps' rows with the same id never meet.
enum StateWriteSQL {
    static let transactionInsert = """
        INSERT INTO transactions (transaction_id, original_transaction_id, product_id, app_account_token,
            environment, purchase_date, revocation_date, signed_date, decoded_json, app)
        """
    static let transactionUpsert = newerSignedReplaces(
        "transactions", key: "transaction_id",
        columns: ["original_transaction_id", "product_id", "app_account_token", "environment", "purchase_date",
                  "revocation_date", "signed_date", "decoded_json"])
    static let renewalInfoInsert = """
        INSERT INTO renewal_info (original_transaction_id, product_id, auto_renew_status, environment,
            signed_date, decoded_json, app)
        """
    static let renewalInfoUpsert = newerSignedReplaces(
        "renewal_info", key: "original_transaction_id",
        columns: ["product_id", "auto_renew_status", "environment", "signed_date", "decoded_json"])
    static let customerInsert = """
        INSERT INTO customers (original_transaction_id, app_account_token, app_transaction_id, environment,
            first_seen_at, app)
        """
    static let customerUpsert = """
        ON CONFLICT (app, original_transaction_id) DO UPDATE SET
            app_account_token = COALESCE(excluded.app_account_token, customers.app_account_token),
            app_transaction_id = COALESCE(excluded.app_transaction_id, customers.app_transaction_id),
            environment = COALESCE(excluded.environment, customers.environment),
            first_seen_at = CASE WHEN excluded.first_seen_at < customers.first_seen_at
                THEN excluded.first_seen_at ELSE customers.first_seen_at END
        RETURNING history_revision
        """

    /// The `ON CONFLICT` tail of a table whose rows move forward only in `signed_date`: a row
    /// signed later than the stored one replaces its `columns`; the statement returns `key`.
    private static func newerSignedReplaces(_ table: String, key: String, columns: [String]) -> String {
        """
        ON CONFLICT (app, \(key)) DO UPDATE SET
        \(columns.map { "    \($0) = excluded.\($0)" }.joined(separator: ",\n"))
        WHERE excluded.signed_date > \(table).signed_date
        RETURNING \(key)
        """
    }
}
