extension SQLRepository {
    // MARK: Consent ledger and app-reported facts

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

    func setTransactionFacts(_ facts: TransactionFactsRecord) async throws {
        try await self.statement { db in
            try await db.execute("""
                INSERT INTO transaction_facts (transaction_id, delivery_status, consumption_percentage,
                    sample_content_provided, sessions_since_purchase, updated_at, final_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                ON CONFLICT (transaction_id) DO UPDATE SET delivery_status = excluded.delivery_status,
                    consumption_percentage = excluded.consumption_percentage,
                    sample_content_provided = excluded.sample_content_provided,
                    sessions_since_purchase = excluded.sessions_since_purchase, updated_at = excluded.updated_at,
                    final_at = excluded.final_at
                """, .text(facts.transactionId), SQLValue(facts.deliveryStatus), SQLValue(facts.consumptionPercentage),
                SQLValue(facts.sampleContentProvided.map { $0 ? Int64(1) : 0 }), SQLValue(facts.sessionsSincePurchase),
                .integer(facts.updatedAt), SQLValue(facts.finalAt))
        }
    }

    func transactionFacts(transactionId: String) async throws -> TransactionFactsRecord? {
        try await self.statement { db in
            try await db.query("""
                SELECT transaction_id, delivery_status, consumption_percentage, sample_content_provided,
                    sessions_since_purchase, updated_at, final_at
                FROM transaction_facts WHERE transaction_id = $1
                """, .text(transactionId)).first.map { row in
                TransactionFactsRecord(
                    transactionId: try row.string("transaction_id"), deliveryStatus: try row.optionalString("delivery_status"),
                    consumptionPercentage: try row.optionalInt64("consumption_percentage"),
                    sampleContentProvided: try row.optionalInt64("sample_content_provided").map { $0 != 0 },
                    sessionsSincePurchase: try row.optionalInt64("sessions_since_purchase"),
                    updatedAt: try row.int64("updated_at"), finalAt: try row.optionalInt64("final_at"))
            }
        }
    }

    func transactions(appAccountToken: String) async throws -> [TransactionRecord] {
        try await self.statement { db in
            try await db.query("""
                SELECT \(Self.transactionColumns) FROM transactions WHERE app_account_token = $1
                ORDER BY CASE WHEN purchase_date IS NULL THEN 1 ELSE 0 END, purchase_date, transaction_id
                """, .text(appAccountToken)).map(Self.transactionRecord)
        }
    }
}
