extension Migrations {
    /// Migration 6: a consent entry is recorded for an app account token or for an
    /// originalTransactionId (purchases made without a token): `app_account_token` becomes
    /// nullable, `original_transaction_id` is added, and exactly one of the two is set. SQLite
    /// cannot drop a NOT NULL, so it rebuilds the table (ids and entries kept).
    static func consentKeys(_ dialect: SQLDialect) -> [String] {
        let oneKey = "CHECK ((app_account_token IS NULL) <> (original_transaction_id IS NULL))"
        let byChain = "CREATE INDEX consents_subscription ON consents (original_transaction_id, consent_at)"
        guard dialect.backend == .sqlite else {
            return [
                "ALTER TABLE consents ALTER COLUMN app_account_token DROP NOT NULL",
                "ALTER TABLE consents ADD COLUMN original_transaction_id TEXT",
                "ALTER TABLE consents ADD CONSTRAINT consents_one_key \(oneKey)",
                byChain,
            ]
        }
        return [
            """
            CREATE TABLE consents_keyed (
                id \(dialect.autoIncrementPrimaryKey),
                app_account_token TEXT,
                original_transaction_id TEXT,
                consented BIGINT NOT NULL,
                consent_at BIGINT NOT NULL,
                source TEXT NOT NULL,
                terms_version TEXT,
                recorded_at BIGINT NOT NULL,
                \(oneKey)
            )
            """,
            """
            INSERT INTO consents_keyed (id, app_account_token, consented, consent_at, source, terms_version, recorded_at)
            SELECT id, app_account_token, consented, consent_at, source, terms_version, recorded_at FROM consents
            """,
            "DROP TABLE consents",
            "ALTER TABLE consents_keyed RENAME TO consents",
            "CREATE INDEX consents_customer ON consents (app_account_token, consent_at)",
            byChain,
        ]
    }
}
