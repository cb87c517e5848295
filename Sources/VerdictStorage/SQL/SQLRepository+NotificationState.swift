extension SQLRepository {
    func recordNotificationState(_ state: NotificationState) async throws -> NotificationStateOutcome {
        if backend == .postgres { return try await recordNotificationStateInOneStatement(state) }
        return try await transaction { db in
            var outcome = NotificationStateOutcome()
            if let transaction = state.transaction {
                outcome.transactionRecorded = try await Self.recordTransaction(transaction, in: db)
            }
            if let renewalInfo = state.renewalInfo {
                outcome.renewalInfoRecorded = try await Self.recordRenewalInfo(renewalInfo, in: db)
            }
            if let customer = state.customer {
                outcome.historyRevision = try await Self.linkCustomer(customer, in: db)
            }
            return outcome
        }
    }

    /// PostgreSQL: the three writes as one statement (one round trip, one commit); a part the
    /// state lacks is bound as nulls and inserts nothing.
    private func recordNotificationStateInOneStatement(_ state: NotificationState) async throws -> NotificationStateOutcome {
        let transaction = state.transaction
        let renewalInfo = state.renewalInfo
        let customer = state.customer
        return try await statement { db in
            let row = try await db.query(
                RecordNotificationState.self,
                SQLValue(transaction?.transactionId), SQLValue(transaction?.originalTransactionId),
                SQLValue(transaction?.productId), SQLValue(transaction?.appAccountToken), SQLValue(transaction?.environment),
                SQLValue(transaction?.purchaseDate), SQLValue(transaction?.revocationDate),
                SQLValue(transaction?.signedDate), SQLValue(transaction?.decodedJSON),
                SQLValue(renewalInfo?.originalTransactionId), SQLValue(renewalInfo?.productId),
                SQLValue(renewalInfo?.autoRenewStatus), SQLValue(renewalInfo?.environment),
                SQLValue(renewalInfo?.signedDate), SQLValue(renewalInfo?.decodedJSON),
                SQLValue(customer?.originalTransactionId), SQLValue(customer?.appAccountToken),
                SQLValue(customer?.appTransactionId), SQLValue(customer?.environment), SQLValue(customer?.seenAt)
            ).first
            guard let row else { throw StorageError.queryFailed(reason: "recording the notification state returned no row") }
            return NotificationStateOutcome(
                transactionRecorded: transaction == nil ? nil : try row.int64("transaction_recorded") > 0,
                renewalInfoRecorded: renewalInfo == nil ? nil : try row.int64("renewal_info_recorded") > 0,
                historyRevision: try row.optionalString("history_revision"))
        }
    }

    /// The statements of `recordTransaction`, `recordRenewalInfo` and `linkCustomer` as one.
    private enum RecordNotificationState: SQLStatement {
        static let sql = """
            WITH recorded_transaction AS (
                INSERT INTO transactions (transaction_id, original_transaction_id, product_id, app_account_token,
                    environment, purchase_date, revocation_date, signed_date, decoded_json)
                SELECT $1::TEXT, $2::TEXT, $3::TEXT, $4::TEXT, $5::TEXT, $6::BIGINT, $7::BIGINT, $8::BIGINT, $9::TEXT
                WHERE $1::TEXT IS NOT NULL
                ON CONFLICT (transaction_id) DO UPDATE SET
                    original_transaction_id = excluded.original_transaction_id,
                    product_id = excluded.product_id,
                    app_account_token = excluded.app_account_token,
                    environment = excluded.environment,
                    purchase_date = excluded.purchase_date,
                    revocation_date = excluded.revocation_date,
                    signed_date = excluded.signed_date,
                    decoded_json = excluded.decoded_json
                WHERE excluded.signed_date > transactions.signed_date
                RETURNING transaction_id
            ), recorded_renewal_info AS (
                INSERT INTO renewal_info (original_transaction_id, product_id, auto_renew_status, environment,
                    signed_date, decoded_json)
                SELECT $10::TEXT, $11::TEXT, $12::BIGINT, $13::TEXT, $14::BIGINT, $15::TEXT
                WHERE $10::TEXT IS NOT NULL
                ON CONFLICT (original_transaction_id) DO UPDATE SET
                    product_id = excluded.product_id,
                    auto_renew_status = excluded.auto_renew_status,
                    environment = excluded.environment,
                    signed_date = excluded.signed_date,
                    decoded_json = excluded.decoded_json
                WHERE excluded.signed_date > renewal_info.signed_date
                RETURNING original_transaction_id
            ), linked_customer AS (
                INSERT INTO customers (original_transaction_id, app_account_token, app_transaction_id, environment,
                    first_seen_at)
                SELECT $16::TEXT, $17::TEXT, $18::TEXT, $19::TEXT, $20::BIGINT
                WHERE $16::TEXT IS NOT NULL
                ON CONFLICT (original_transaction_id) DO UPDATE SET
                    app_account_token = COALESCE(excluded.app_account_token, customers.app_account_token),
                    app_transaction_id = COALESCE(excluded.app_transaction_id, customers.app_transaction_id),
                    environment = COALESCE(excluded.environment, customers.environment),
                    first_seen_at = CASE WHEN excluded.first_seen_at < customers.first_seen_at
                        THEN excluded.first_seen_at ELSE customers.first_seen_at END
                RETURNING history_revision
            )
            SELECT (SELECT COUNT(*) FROM recorded_transaction) AS transaction_recorded,
                (SELECT COUNT(*) FROM recorded_renewal_info) AS renewal_info_recorded,
                (SELECT history_revision FROM linked_customer) AS history_revision
            """
    }
}
