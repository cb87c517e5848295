extension SQLRepository {
    // MARK: App-reported facts (keyed by app and transaction id)

    func setTransactionFacts(_ facts: TransactionFactsRecord) async throws {
        try await self.statement { [appValue] db in
            try await db.execute("""
                INSERT INTO transaction_facts (app, transaction_id, delivery_status, consumption_percentage,
                    sample_content_provided, sessions_since_purchase, updated_at, final_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                ON CONFLICT (app, transaction_id) DO UPDATE SET delivery_status = excluded.delivery_status,
                    consumption_percentage = excluded.consumption_percentage,
                    sample_content_provided = excluded.sample_content_provided,
                    sessions_since_purchase = excluded.sessions_since_purchase, updated_at = excluded.updated_at,
                    final_at = excluded.final_at
                """, appValue, .text(facts.transactionId), SQLValue(facts.deliveryStatus), SQLValue(facts.consumptionPercentage),
                SQLValue(facts.sampleContentProvided.map { $0 ? Int64(1) : 0 }), SQLValue(facts.sessionsSincePurchase),
                .integer(facts.updatedAt), SQLValue(facts.finalAt))
        }
    }

    func transactionFacts(transactionId: String) async throws -> TransactionFactsRecord? {
        try await self.statement { [appValue] db in
            try await db.query("""
                SELECT transaction_id, delivery_status, consumption_percentage, sample_content_provided,
                    sessions_since_purchase, updated_at, final_at
                FROM transaction_facts WHERE app = $1 AND transaction_id = $2
                """, appValue, .text(transactionId)).first.map { row in
                TransactionFactsRecord(
                    transactionId: try row.string("transaction_id"), deliveryStatus: try row.optionalString("delivery_status"),
                    consumptionPercentage: try row.optionalInt64("consumption_percentage"),
                    sampleContentProvided: try row.optionalInt64("sample_content_provided").map { $0 != 0 },
                    sessionsSincePurchase: try row.optionalInt64("sessions_since_purchase"),
                    updatedAt: try row.int64("updated_at"), finalAt: try row.optionalInt64("final_at"))
            }
        }
    }
}
