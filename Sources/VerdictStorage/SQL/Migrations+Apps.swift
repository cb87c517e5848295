import Logging

extension Migrations {
    /// Migration 19: every app-owned row says its app (its bundle id), so one database serves
    /// several apps.
    ///
    /// - Tables keyed by an id only its app knows (Apple's transaction ids, appAccountTokens,
    ///   message identifiers) are keyed by app and id; the others gain an `app` column.
    /// - The daily statistics are kept per app (their triggers are rebuilt with the app as a key).
    /// - Rows stored before this version get the app `''` and a marker (`rows_without_app`): the
    ///   first migration by a repository acting for the app their notifications name (or, without
    ///   any, for any app) gives them that app (``adoptRowsWithoutApp(_:in:logger:)``) — the app
    ///   the database was configured for.
    ///
    /// Not per app: signature nonces (never reused, whichever app signed), console sessions (a
    /// signed-in token), and consumption attempts (rows of a consumption request, which has one).
    static func apps(_ dialect: SQLDialect) -> [String] {
        var statements: [String] = []
        for table in keyedTables {
            statements += rekey(table, dialect)
        }
        for table in columnTables {
            statements.append("ALTER TABLE \(table) ADD COLUMN app TEXT NOT NULL DEFAULT ''")
            if dialect.backend == .postgres { statements.append("ALTER TABLE \(table) ALTER COLUMN app DROP DEFAULT") }
        }
        statements += [
            "DROP INDEX jobs_dedupe_key",
            "CREATE UNIQUE INDEX jobs_dedupe_key ON jobs (app, dedupe_key) WHERE dedupe_key IS NOT NULL AND state <> 'dead'",
            "DROP INDEX consumption_requests_open",
            "CREATE UNIQUE INDEX consumption_requests_open ON consumption_requests (app, transaction_id) WHERE state IN ('pending', 'sent')",
            "CREATE TABLE rows_without_app (marker BIGINT PRIMARY KEY)",
            "INSERT INTO rows_without_app (marker) VALUES (1)",
        ]
        return statements + dailyStatisticsByApp(dialect)
    }

    /// Every table with an `app` column, for the adoption of rows from before apps.
    static var appOwnedTables: [String] {
        keyedTables.map(\.name) + columnTables + [offerRuleDays.table, refundRuleDays.table, notificationDays.table]
    }

    /// Gives the rows stored before migration 19 (app `''`) to `app`, once: the marker goes with
    /// them, in the migration's transaction. Rows whose notifications name another bundle id are
    /// not `app`'s: they are left (with the marker) for that app, and a warning says so.
    static func adoptRowsWithoutApp(_ app: String, in db: any SQLExecutor, logger: Logger) async throws {
        guard !(try await db.query("SELECT marker FROM rows_without_app")).isEmpty else { return }
        if let other = try await db.query(
            "SELECT bundle_id FROM notifications WHERE app = '' AND bundle_id IS NOT NULL AND bundle_id <> $1 LIMIT 1", .text(app)
        ).first {
            let owner = try other.string("bundle_id")
            logger.warning("rows stored before apps belong to another app; left for it", metadata: [
                "app": "\(app)", "rows_app": "\(owner)",
            ])
            return
        }
        var moved = 0
        for table in appOwnedTables {
            moved += try await db.query("SELECT COUNT(*) AS n FROM \(table) WHERE app = ''").first?.int("n") ?? 0
            try await db.execute("UPDATE \(table) SET app = $1 WHERE app = ''", .text(app))
        }
        try await db.execute("DELETE FROM rows_without_app")
        logger.info("rows stored before apps now belong to the configured app", metadata: ["app": "\(app)", "rows": "\(moved)"])
    }

    /// A table whose key gains the app: its columns as migration 18 left them, its key, and its
    /// indexes (SQLite rebuilds the table; PostgreSQL replaces the primary key in place).
    struct KeyedTable: Sendable {
        var name: String
        var columns: [String]
        var key: [String]
        var indexes: [String] = []
    }

    private static let keyedTables: [KeyedTable] = [
        KeyedTable(
            name: "transactions",
            columns: [
                "transaction_id TEXT NOT NULL", "original_transaction_id TEXT NOT NULL", "product_id TEXT NOT NULL",
                "app_account_token TEXT", "environment TEXT", "purchase_date BIGINT", "revocation_date BIGINT",
                "signed_date BIGINT NOT NULL", "decoded_json TEXT NOT NULL",
            ],
            key: ["transaction_id"],
            indexes: [
                "CREATE INDEX transactions_original_transaction_id ON transactions (original_transaction_id, purchase_date)",
                "CREATE INDEX transactions_app_account_token ON transactions (app_account_token)",
            ]),
        KeyedTable(
            name: "renewal_info",
            columns: [
                "original_transaction_id TEXT NOT NULL", "product_id TEXT", "auto_renew_status BIGINT", "environment TEXT",
                "signed_date BIGINT NOT NULL", "decoded_json TEXT NOT NULL",
            ],
            key: ["original_transaction_id"]),
        KeyedTable(
            name: "customers",
            columns: [
                "original_transaction_id TEXT NOT NULL", "app_account_token TEXT", "app_transaction_id TEXT", "environment TEXT",
                "first_seen_at BIGINT NOT NULL", "history_revision TEXT", "history_synced_at BIGINT",
            ],
            key: ["original_transaction_id"],
            indexes: [
                "CREATE INDEX customers_app_account_token ON customers (app_account_token)",
                "CREATE INDEX customers_app_transaction_id ON customers (app_transaction_id)",
            ]),
        KeyedTable(
            name: "customer_attributes",
            columns: ["app_account_token TEXT NOT NULL", "attributes_json TEXT NOT NULL", "updated_at BIGINT NOT NULL"],
            key: ["app_account_token"]),
        KeyedTable(
            name: "transaction_facts",
            columns: [
                "transaction_id TEXT NOT NULL", "delivery_status TEXT", "consumption_percentage BIGINT",
                "sample_content_provided BIGINT", "sessions_since_purchase BIGINT", "updated_at BIGINT NOT NULL", "final_at BIGINT",
            ],
            key: ["transaction_id"]),
        KeyedTable(
            name: "retention_messages",
            columns: [
                "message_identifier TEXT NOT NULL", "message_id TEXT NOT NULL", "locale TEXT NOT NULL", "state TEXT NOT NULL",
                "checked_at BIGINT NOT NULL", "kind TEXT NOT NULL DEFAULT 'message'",
            ],
            key: ["message_identifier"]),
    ]

    /// Tables whose rows are found by a globally unique id (UUIDs, job ids) and gain an `app` column.
    private static let columnTables = [
        "notifications", "jobs", "offer_decisions", "offer_revenue", "consumption_requests", "consents", "rule_replays",
    ]

    private static func rekey(_ table: KeyedTable, _ dialect: SQLDialect) -> [String] {
        let key = (["app"] + table.key).joined(separator: ", ")
        switch dialect.backend {
        case .postgres:
            return [
                "ALTER TABLE \(table.name) ADD COLUMN app TEXT NOT NULL DEFAULT ''",
                "ALTER TABLE \(table.name) ALTER COLUMN app DROP DEFAULT",
                "ALTER TABLE \(table.name) DROP CONSTRAINT \(table.name)_pkey",
                "ALTER TABLE \(table.name) ADD PRIMARY KEY (\(key))",
            ]
        case .sqlite:
            let names = table.columns.map { String($0.prefix { $0 != " " }) }.joined(separator: ", ")
            return [
                """
                CREATE TABLE \(table.name)_by_app (
                    app TEXT NOT NULL,
                    \(table.columns.joined(separator: ",\n    ")),
                    PRIMARY KEY (\(key))
                )
                """,
                "INSERT INTO \(table.name)_by_app (app, \(names)) SELECT '', \(names) FROM \(table.name)",
                "DROP TABLE \(table.name)",
                "ALTER TABLE \(table.name)_by_app RENAME TO \(table.name)",
            ] + table.indexes
        }
    }
}
