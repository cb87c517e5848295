extension SQLRepository {
    func recordNotificationState(_ state: NotificationState) async throws -> NotificationStateOutcome {
        if backend == .postgres { return try await recordNotificationStateInOneStatement(state) }
        let app = self.app
        return try await transaction { db in
            var outcome = NotificationStateOutcome()
            if let transaction = state.transaction {
                outcome.transactionRecorded = try await Self.recordTransaction(transaction, app: app, in: db)
            }
            if let renewalInfo = state.renewalInfo {
                outcome.renewalInfoRecorded = try await Self.recordRenewalInfo(renewalInfo, app: app, in: db)
            }
            if let customer = state.customer {
                outcome.historyRevision = try await Self.linkCustomer(customer, app: app, in: db)
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
        let app = appValue
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
                SQLValue(customer?.appTransactionId), SQLValue(customer?.environment), SQLValue(customer?.seenAt), app
            ).first
            guard let row else { throw StorageError.queryFailed(reason: "recording the notification state returned no row") }
            return NotificationStateOutcome(
                transactionRecorded: transaction == nil ? nil : try row.int64("transaction_recorded") > 0,
                renewalInfoRecorded: renewalInfo == nil ? nil : try row.int64("renewal_info_recorded") > 0,
                historyRevision: try row.optionalString("history_revision"))
        }
    }

    /// The statements of `recordTransaction`, `recordRenewalInfo` and `linkCustomer` as one: each
    /// `INSERT … SELECT` inserts nothing when its first parameter is null. `$21` is the app.
    private enum RecordNotificationState: SQLStatement {
        static let sql = """
            WITH recorded_transaction AS (
            \(StateWriteSQL.transactionInsert)
            SELECT $1::TEXT, $2::TEXT, $3::TEXT, $4::TEXT, $5::TEXT, $6::BIGINT, $7::BIGINT, $8::BIGINT, $9::TEXT, $21::TEXT
            WHERE $1::TEXT IS NOT NULL
            \(StateWriteSQL.transactionUpsert)
            ), recorded_renewal_info AS (
            \(StateWriteSQL.renewalInfoInsert)
            SELECT $10::TEXT, $11::TEXT, $12::BIGINT, $13::TEXT, $14::BIGINT, $15::TEXT, $21::TEXT
            WHERE $10::TEXT IS NOT NULL
            \(StateWriteSQL.renewalInfoUpsert)
            ), linked_customer AS (
            \(StateWriteSQL.customerInsert)
            SELECT $16::TEXT, $17::TEXT, $18::TEXT, $19::TEXT, $20::BIGINT, $21::TEXT
            WHERE $16::TEXT IS NOT NULL
            \(StateWriteSQL.customerUpsert)
            )
            SELECT (SELECT COUNT(*) FROM recorded_transaction) AS transaction_recorded,
                (SELECT COUNT(*) FROM recorded_renewal_info) AS renewal_info_recorded,
                (SELECT history_revision FROM linked_customer) AS history_revision
            """
    }
}
