extension SQLRepository {
    // MARK: Consent ledger

    func recordConsent(_ consent: ConsentRecord) async throws {
        try await self.statement { db in
            try await db.execute("""
                INSERT INTO consents (app_account_token, original_transaction_id, consented, consent_at, source,
                    terms_version, recorded_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                """, SQLValue(consent.key.appAccountToken), SQLValue(consent.key.originalTransactionId),
                .integer(consent.consented ? 1 : 0), .integer(consent.at),
                .text(consent.source), SQLValue(consent.termsVersion), .integer(consent.recordedAt))
        }
    }

    func consents(keys: [ConsentKey], limit: Int) async throws -> [ConsentRecord] {
        let token = keys.lazy.compactMap(\.appAccountToken).first
        let chain = keys.lazy.compactMap(\.originalTransactionId).first
        guard token != nil || chain != nil else { return [] }
        return try await self.statement { db in
            try await db.query("""
                SELECT app_account_token, original_transaction_id, consented, consent_at, source, terms_version,
                    recorded_at
                FROM consents WHERE app_account_token = $1 OR original_transaction_id = $2
                ORDER BY consent_at DESC, id DESC LIMIT $3
                """, SQLValue(token), SQLValue(chain), .integer(Int64(max(1, limit)))).map { row in
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
