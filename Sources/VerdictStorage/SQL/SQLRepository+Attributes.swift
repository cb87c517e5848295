extension SQLRepository {
    // MARK: Customer attributes (keyed by app and appAccountToken)

    func setCustomerAttributes(_ record: CustomerAttributesRecord) async throws {
        try await self.statement { [appValue] db in
            _ = try await db.query("""
                INSERT INTO customer_attributes (app, app_account_token, attributes_json, updated_at) VALUES ($1, $2, $3, $4)
                ON CONFLICT (app, app_account_token) DO UPDATE SET
                    attributes_json = excluded.attributes_json,
                    updated_at = excluded.updated_at
                """, appValue, .text(record.appAccountToken), .text(record.json), .integer(record.updatedAt))
        }
    }

    func customerAttributes(appAccountToken: String) async throws -> CustomerAttributesRecord? {
        try await self.statement { [appValue] db in
            guard let row = try await db.query(
                "SELECT attributes_json, updated_at FROM customer_attributes WHERE app = $1 AND app_account_token = $2",
                appValue, .text(appAccountToken)).first
            else { return nil }
            return CustomerAttributesRecord(
                appAccountToken: appAccountToken, json: try row.string("attributes_json"), updatedAt: try row.int64("updated_at"))
        }
    }
}
