extension SQLRepository {
    // MARK: Consent ledger (each entry belongs to an app)

    func recordConsent(_ consent: ConsentRecord) async throws {
        try await self.statement { [appValue] db in
            try await db.execute("""
                INSERT INTO consents (app, app_account_token, original_transaction_id, consented, consent_at, source,
                    terms_version, recorded_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                """, appValue, SQLValue(consent.key.appAccountToken), SQLValue(consent.key.originalTransactionId),
                .integer(consent.consented ? 1 : 0), .integer(consent.at),
                .text(consent.source), SQLValue(consent.termsVersion), .integer(consent.recordedAt))
        }
    }

    func consents(keys: [ConsentKey], limit: Int) async throws -> [ConsentRecord] {
        let token = keys.lazy.compactMap(\.appAccountToken).first
        let chain = keys.lazy.compactMap(\.originalTransactionId).first
        guard token != nil || chain != nil else { return [] }
        return try await self.statement { [appValue] db in
            try await db.query("""
                SELECT app_account_token, original_transaction_id, consented, consent_at, source, terms_version,
                    recorded_at
                FROM consents WHERE app = $1 AND (app_account_token = $2 OR original_transaction_id = $3)
                ORDER BY consent_at DESC, id DESC LIMIT $4
                """, appValue, SQLValue(token), SQLValue(chain), .integer(Int64(max(1, limit)))).map { row in
                let key: ConsentKey = if let token = try row.optionalString("app_account_token") {
                    .appAccountToken(token)
                } else {
                    .originalTransactionId(try row.string("original_transaction_id"))
                }
                return ConsentRecord(
                    key: key, consented: try row.int64("consented") != 0,
                    at: try row.int64("consent_at"), source: try row.string("source"),
                    termsVersion: try row.optionalString("terms_version"), recordedAt: try row.int64("recorded_at"))
            }
        }
    }
}
