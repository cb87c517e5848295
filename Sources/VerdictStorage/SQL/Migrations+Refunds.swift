extension Migrations {
    /// Migration 3: the consent ledger (append-only), what apps report per purchase, every
    /// consumption request (one per notification; at most one pending or sent per purchase) and
    /// every Send Consumption Information attempt.
    static func refundTables(_ dialect: SQLDialect) -> [String] {
        [
            """
            CREATE TABLE consents (
                id \(dialect.autoIncrementPrimaryKey),
                app_account_token TEXT NOT NULL,
                consented BIGINT NOT NULL,
                consent_at BIGINT NOT NULL,
                source TEXT NOT NULL,
                terms_version TEXT,
                recorded_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX consents_customer ON consents (app_account_token, consent_at)",
            """
            CREATE TABLE transaction_facts (
                transaction_id TEXT PRIMARY KEY,
                delivery_status TEXT,
                consumption_percentage BIGINT,
                sample_content_provided BIGINT,
                sessions_since_purchase BIGINT,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE consumption_requests (
                id TEXT PRIMARY KEY,
                notification_uuid TEXT NOT NULL UNIQUE,
                transaction_id TEXT NOT NULL,
                original_transaction_id TEXT NOT NULL,
                app_account_token TEXT,
                environment TEXT,
                reason TEXT,
                requested_at BIGINT NOT NULL,
                deadline BIGINT NOT NULL,
                decided_at BIGINT NOT NULL,
                bundle_hash TEXT,
                rule_id TEXT,
                rule_line BIGINT,
                blocked_by TEXT,
                consent_basis TEXT NOT NULL CHECK (consent_basis IN ('recorded', 'assumed', 'refused', 'none')),
                state TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'failed', 'not_sent', 'missed')),
                body TEXT,
                record_json TEXT NOT NULL,
                sent_at BIGINT,
                last_error TEXT,
                outcome TEXT,
                outcome_at BIGINT,
                outcomes_json TEXT NOT NULL,
                repeats_json TEXT NOT NULL
            )
            """,
            "CREATE INDEX consumption_requests_transaction ON consumption_requests (transaction_id, requested_at)",
            "CREATE INDEX consumption_requests_decided ON consumption_requests (decided_at)",
            // One answer per purchase: a second pending or sent request for it cannot be stored.
            """
            CREATE UNIQUE INDEX consumption_requests_open ON consumption_requests (transaction_id)
            WHERE state IN ('pending', 'sent')
            """,
            """
            CREATE TABLE consumption_attempts (
                id \(dialect.autoIncrementPrimaryKey),
                request_id TEXT NOT NULL REFERENCES consumption_requests (id),
                attempt BIGINT NOT NULL,
                attempted_at BIGINT NOT NULL,
                http_status BIGINT,
                error_code BIGINT,
                error_message TEXT,
                result TEXT NOT NULL CHECK (result IN ('sent', 'retry', 'failed', 'missed')),
                retry_at BIGINT
            )
            """,
            "CREATE INDEX consumption_attempts_request ON consumption_attempts (request_id, attempt)",
        ]
    }
}
