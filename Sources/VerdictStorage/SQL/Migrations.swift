/// The versioned schema. Migrations are append-only: never edit a shipped one, add the next version.
///
/// Each migration is a list of single statements (SQLite prepares one statement at a time) written
/// once for both backends; `SQLDialect` fills in the few type names that differ.
enum Migrations {
    struct Migration: Sendable {
        var version: Int
        var name: String
        var statements: @Sendable (SQLDialect) -> [String]
    }

    static let all: [Migration] = [
        Migration(version: 1, name: "notifications, transactions, renewal info, customers, jobs", statements: initialSchema),
        Migration(version: 2, name: "offer signature nonces, customer attributes, offer decisions", statements: { _ in offerTables }),
        Migration(version: 3, name: "consent ledger, transaction facts, consumption requests and attempts", statements: refundTables),
        Migration(version: 4, name: "claim indexes: queued jobs in claim order, running jobs by lease expiry", statements: { _ in
            claimIndexes
        }),
        Migration(version: 5, name: "PostgreSQL: claim queued jobs in index order (verdict_claim_queued_jobs)",
                  statements: claimFunction),
        Migration(version: 6, name: "consent recorded for an app account token or an originalTransactionId",
                  statements: consentKeys),
        Migration(version: 7, name: "transaction facts the app marked final", statements: { _ in
            ["ALTER TABLE transaction_facts ADD COLUMN final_at BIGINT"]
        }),
        Migration(version: 8, name: "offer decisions counted per customer unit (perCustomer caps)", statements: { _ in
            [
                "ALTER TABLE offer_decisions ADD COLUMN customer_unit TEXT",
                "UPDATE offer_decisions SET customer_unit = original_transaction_id",
                "CREATE INDEX offer_decisions_customer_unit ON offer_decisions (customer_unit, decided_at)",
            ]
        }),
        Migration(version: 9, name: "jobs woken while they run (a waiting job runs again at once)", statements: { _ in
            ["ALTER TABLE jobs ADD COLUMN woken_at BIGINT"]
        }),
        Migration(version: 10, name: "rule replays: decisions in the order they were made, replays asked for through the API",
                  statements: { _ in ruleReplays }),
        Migration(version: 11, name: "console sign-in sessions", statements: { _ in
            [
                """
                CREATE TABLE console_sessions (
                    id_digest TEXT PRIMARY KEY,
                    role TEXT NOT NULL,
                    csrf_token TEXT NOT NULL,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX console_sessions_expires ON console_sessions (expires_at)",
            ]
        }),
        Migration(version: 12, name: "statistics by day (offer decisions, consumption requests, notifications); net revenue per offer decision",
                  statements: dailyStatistics),
        Migration(version: 13, name: "consumption submissions marked in flight while Apple is called", statements: { _ in
            [
                "ALTER TABLE consumption_requests ADD COLUMN sending_attempt BIGINT",
                "ALTER TABLE consumption_requests ADD COLUMN sending_since BIGINT",
            ]
        }),
        Migration(version: 14, name: "review states of the retention messages uploaded to Apple", statements: { _ in
            [
                """
                CREATE TABLE retention_messages (
                    message_identifier TEXT PRIMARY KEY,
                    message_id TEXT NOT NULL,
                    locale TEXT NOT NULL,
                    state TEXT NOT NULL,
                    checked_at BIGINT NOT NULL
                )
                """,
            ]
        }),
        Migration(version: 15, name: "what customers did after offer decisions (actions, their offerType), counted per rule and day",
                  statements: customerActions),
        Migration(version: 16, name: "review states of the retention images uploaded to Apple, beside the messages'", statements: { _ in
            ["ALTER TABLE retention_messages ADD COLUMN kind TEXT NOT NULL DEFAULT 'message'"]
        }),
        Migration(version: 17, name: "realtime decisions whose answer reached Apple after its deadline", statements: { _ in
            ["ALTER TABLE offer_decisions ADD COLUMN answered_late BIGINT NOT NULL DEFAULT 0"]
        }),
        Migration(version: 18, name: "seat outcomes (seats added, refunded, unclaimed, assignments revoked), counted per rule and day",
                  statements: seatOutcomes),
        Migration(version: 19, name: "every app-owned row says its app (several apps in one database)", statements: apps),
        // Sessions opened before it knew no apps: they are closed (everyone signs in once more), so
        // none keeps seeing every app after its token is limited to some.
        Migration(version: 20, name: "console sessions keep the apps their token acts for (NULL: every app)", statements: { _ in
            ["ALTER TABLE console_sessions ADD COLUMN apps TEXT", "DELETE FROM console_sessions"]
        }),
        // A session follows its token: each request finds the token's role and apps as configured
        // now (a token removed or narrowed takes its sessions with it at the next start). The row
        // keeps an HMAC of the token keyed by the session id, which only the browser holds, so the
        // database holds nothing a token could be guessed from. Sessions opened before it name no
        // token: they are closed.
        Migration(version: 21, name: "console sessions are bound to the token they were opened with", statements: { _ in
            ["ALTER TABLE console_sessions ADD COLUMN token_binding TEXT", "DELETE FROM console_sessions"]
        }),
        // Each job keeps the W3C traceparent of the work that enqueued it (NULL when not traced).
        Migration(version: 22, name: "jobs keep the trace context of the work that enqueued them", statements: { _ in
            ["ALTER TABLE jobs ADD COLUMN trace_parent TEXT"]
        }),
    ]

    /// Rule replays read the decisions in the order they were made, a page at a time; the replays
    /// asked for through the API keep their request, progress and report.
    private static let ruleReplays = [
        "CREATE INDEX offer_decisions_decided ON offer_decisions (decided_at, id)",
        "DROP INDEX consumption_requests_decided",
        "CREATE INDEX consumption_requests_decided ON consumption_requests (decided_at, id)",
        """
        CREATE TABLE rule_replays (
            id TEXT PRIMARY KEY,
            state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')),
            candidate_hash TEXT NOT NULL,
            request_json TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            started_at BIGINT,
            finished_at BIGINT,
            progress_done BIGINT NOT NULL DEFAULT 0,
            progress_total BIGINT NOT NULL DEFAULT 0,
            report_json TEXT,
            error TEXT
        )
        """,
        "CREATE INDEX rule_replays_created ON rule_replays (created_at)",
    ]

    /// The highest version this build knows.
    static var latestVersion: Int { all.map(\.version).max() ?? 0 }

    static let createMigrationsTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            version BIGINT PRIMARY KEY,
            applied_at BIGINT NOT NULL
        )
        """

    /// Claiming reads only queued jobs in claim order, and running jobs whose lease expired: one
    /// partial index each, so a claim reads a handful of index entries even while the planner's
    /// statistics lag behind a burst (the kind index let it scan and sort every queued job).
    private static let claimIndexes = [
        "DROP INDEX jobs_kind_state",
        "DROP INDEX jobs_claim_order",
        """
        CREATE INDEX jobs_queued_claim ON jobs ((CASE WHEN deadline IS NULL THEN 1 ELSE 0 END), deadline, run_at, id)
        WHERE state = 'queued'
        """,
        "CREATE INDEX jobs_running_lease ON jobs (lease_until) WHERE state = 'running'",
    ]

    /// Every nonce Verdict signed an offer with, kept until Apple forgets it (24 hours), so none is
    /// ever issued twice; the attributes app backends set per customer; and every offer decision
    /// (one per notification at most), which also answers the limits.
    private static let offerTables = [
        """
        CREATE TABLE offer_nonces (
            nonce TEXT PRIMARY KEY,
            issued_at BIGINT NOT NULL,
            expires_at BIGINT NOT NULL
        )
        """,
        "CREATE INDEX offer_nonces_expires_at ON offer_nonces (expires_at)",
        """
        CREATE TABLE customer_attributes (
            app_account_token TEXT PRIMARY KEY,
            attributes_json TEXT NOT NULL,
            updated_at BIGINT NOT NULL
        )
        """,
        """
        CREATE TABLE offer_decisions (
            id TEXT PRIMARY KEY,
            original_transaction_id TEXT NOT NULL,
            notification_uuid TEXT UNIQUE,
            trigger_name TEXT NOT NULL,
            bundle_hash TEXT NOT NULL,
            rule_id TEXT,
            rule_line BIGINT,
            offer_id TEXT,
            offer_type TEXT,
            product_id TEXT,
            held_out BIGINT NOT NULL,
            decided_at BIGINT NOT NULL,
            expires_at BIGINT,
            record_json TEXT NOT NULL,
            outcome TEXT CHECK (outcome IN ('redeemed', 'retained')),
            outcome_at BIGINT,
            outcome_notification_uuid TEXT
        )
        """,
        "CREATE INDEX offer_decisions_customer ON offer_decisions (original_transaction_id, decided_at)",
        "CREATE INDEX offer_decisions_offer ON offer_decisions (offer_id, decided_at)",
    ]

    private static func initialSchema(_ dialect: SQLDialect) -> [String] {
        [
            """
            CREATE TABLE notifications (
                notification_uuid TEXT PRIMARY KEY,
                notification_type TEXT NOT NULL,
                subtype TEXT,
                environment TEXT,
                bundle_id TEXT,
                original_transaction_id TEXT,
                transaction_id TEXT,
                signed_date BIGINT NOT NULL,
                received_at BIGINT NOT NULL,
                source TEXT NOT NULL,
                signed_payload TEXT NOT NULL,
                decoded_json TEXT NOT NULL,
                state TEXT NOT NULL DEFAULT 'received' CHECK (state IN ('received', 'processed', 'failed')),
                job_id BIGINT,
                result TEXT,
                processed_at BIGINT,
                processed_count BIGINT NOT NULL DEFAULT 0
            )
            """,
            "CREATE INDEX notifications_signed_date ON notifications (signed_date)",
            "CREATE INDEX notifications_original_transaction_id ON notifications (original_transaction_id)",
            """
            CREATE TABLE transactions (
                transaction_id TEXT PRIMARY KEY,
                original_transaction_id TEXT NOT NULL,
                product_id TEXT NOT NULL,
                app_account_token TEXT,
                environment TEXT,
                purchase_date BIGINT,
                revocation_date BIGINT,
                signed_date BIGINT NOT NULL,
                decoded_json TEXT NOT NULL
            )
            """,
            "CREATE INDEX transactions_original_transaction_id ON transactions (original_transaction_id, purchase_date)",
            "CREATE INDEX transactions_app_account_token ON transactions (app_account_token)",
            """
            CREATE TABLE renewal_info (
                original_transaction_id TEXT PRIMARY KEY,
                product_id TEXT,
                auto_renew_status BIGINT,
                environment TEXT,
                signed_date BIGINT NOT NULL,
                decoded_json TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE customers (
                original_transaction_id TEXT PRIMARY KEY,
                app_account_token TEXT,
                app_transaction_id TEXT,
                environment TEXT,
                first_seen_at BIGINT NOT NULL,
                history_revision TEXT,
                history_synced_at BIGINT
            )
            """,
            "CREATE INDEX customers_app_account_token ON customers (app_account_token)",
            "CREATE INDEX customers_app_transaction_id ON customers (app_transaction_id)",
            """
            CREATE TABLE jobs (
                id \(dialect.autoIncrementPrimaryKey),
                kind TEXT NOT NULL,
                payload TEXT NOT NULL,
                notification_uuid TEXT REFERENCES notifications (notification_uuid),
                dedupe_key TEXT,
                state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'dead')),
                run_at BIGINT NOT NULL,
                deadline BIGINT,
                max_attempts BIGINT NOT NULL,
                attempts BIGINT NOT NULL DEFAULT 0,
                lease_owner TEXT,
                lease_until BIGINT,
                last_error TEXT,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            // Claim order: runnable queued jobs by deadline (nulls last), run_at, id.
            "CREATE INDEX jobs_claim_order ON jobs (state, (CASE WHEN deadline IS NULL THEN 1 ELSE 0 END), deadline, run_at, id)",
            "CREATE INDEX jobs_lease ON jobs (lease_owner, lease_until) WHERE lease_owner IS NOT NULL",
            "CREATE INDEX jobs_kind_state ON jobs (kind, state)",
            "CREATE INDEX jobs_notification_uuid ON jobs (notification_uuid)",
            """
            CREATE UNIQUE INDEX jobs_dedupe_key ON jobs (dedupe_key)
            WHERE dedupe_key IS NOT NULL AND state <> 'dead'
            """,
        ]
    }
}
