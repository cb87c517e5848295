extension SQLRepository {
    // MARK: Customer attributes

    func setCustomerAttributes(_ record: CustomerAttributesRecord) async throws {
        try await self.statement { db in
            _ = try await db.query("""
                INSERT INTO customer_attributes (app_account_token, attributes_json, updated_at) VALUES ($1, $2, $3)
                ON CONFLICT (app_account_token) DO UPDATE SET
                    attributes_json = excluded.attributes_json,
                    updated_at = excluded.updated_at
                """, .text(record.appAccountToken), .text(record.json), .integer(record.updatedAt))
        }
    }

    func customerAttributes(appAccountToken: String) async throws -> CustomerAttributesRecord? {
        try await self.statement { db in
            guard let row = try await db.query(
                "SELECT attributes_json, updated_at FROM customer_attributes WHERE app_account_token = $1",
                .text(appAccountToken)).first
            else { return nil }
            return CustomerAttributesRecord(
                appAccountToken: appAccountToken, json: try row.string("attributes_json"), updatedAt: try row.int64("updated_at"))
        }
    }
}
