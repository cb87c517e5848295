extension SQLRepository {
    // MARK: Offer outcomes and rule statistics

    func recordCustomerAction(_ event: CustomerActionEvent, attributionWindow: Int64, at: Int64) async throws -> Int {
        let app = appValue
        // Most renewals follow no open decision: one autocommitted look first (this runs for every DID_RENEW).
        let anyOpen = try await statement { db in
            try await !db.query(
                "SELECT 1 AS found FROM offer_decisions WHERE original_transaction_id = $1 AND app = $2 AND outcome IS NULL LIMIT 1",
                .text(event.originalTransactionId), app).isEmpty
        }
        guard anyOpen else { return 0 }
        return try await transaction { db in
            // Open: no outcome yet, decided before now, not this notification's own decision, and
            // the customer acted within the window after the offer's expiry (or the decision); this
            // app's only.
            let open = """
                original_transaction_id = $1 AND app = $6 AND outcome IS NULL AND decided_at <= $2
                AND (notification_uuid IS NULL OR notification_uuid <> $3)
                AND COALESCE(expires_at, decided_at) >= $4
                """
            let binds: [SQLValue] = [
                .text(event.originalTransactionId), .integer(at), .text(event.notificationUUID),
                .integer(event.actedAt - attributionWindow), SQLValue(event.offerType.map(Int64.init)), app,
            ]
            guard event.action.stayed else {
                // Not a stay: recorded on open decisions without an action yet, the outcome left
                // open. Turning auto-renew off is news only after a cancel-page decision.
                let realtimeOnly = event.action == .cancelled ? "AND trigger_name = 'REALTIME_REQUEST'" : ""
                return try await db.query("""
                    UPDATE offer_decisions SET customer_action = $7, action_offer_type = $5, outcome_at = $2,
                        outcome_notification_uuid = $3
                    WHERE \(open) \(realtimeOnly) AND customer_action IS NULL
                    RETURNING id
                    """, binds + [.text(event.action.rawValue)]).count
            }
            var changed = 0
            for offerIdentifier in Set(event.offerIdentifiers) {
                changed += try await db.query("""
                    UPDATE offer_decisions SET outcome = 'redeemed', customer_action = 'redeemed', action_offer_type = $5,
                        outcome_at = $2, outcome_notification_uuid = $3
                    WHERE \(open) AND held_out = 0 AND offer_id = $7
                    RETURNING id
                    """, binds + [.text(offerIdentifier)]).count
            }
            changed += try await db.query("""
                UPDATE offer_decisions SET outcome = 'retained', customer_action = $7, action_offer_type = $5, outcome_at = $2,
                    outcome_notification_uuid = $3
                WHERE \(open)
                RETURNING id
                """, binds + [.text(event.action.rawValue)]).count
            return changed
        }
    }

    func recordOfferRevenue(_ event: OfferRevenueEvent, window: Int64, at: Int64) async throws -> Int {
        // Most purchases and refunds follow no offer decision: one autocommitted look first, and a
        // transaction only when there is something to credit (this runs for every renewal).
        guard try await Self.mayCredit(event, window: window, in: self) else { return 0 }
        let app = appValue
        return try await transaction { db in
            // Ledger rows first (one per decision, transaction and kind: a repeat inserts nothing),
            // then each credited decision's revenue, in the same transaction. Only this app's
            // decisions and ledger rows are credited; the ledger rows store the app.
            let credited: [SQLRow]
            switch event {
            case .purchase(let originalTransactionId, let transactionId, let purchasedAt, let amount, let currency):
                credited = try await db.query("""
                    INSERT INTO offer_revenue (app, decision_id, transaction_id, kind, amount, recorded_at)
                    SELECT app, id, $2, 'purchase', $3, $4 FROM offer_decisions
                    WHERE original_transaction_id = $1 AND app = $8 AND currency = $5 AND decided_at <= $6 AND decided_at >= $7
                    ON CONFLICT DO NOTHING
                    RETURNING decision_id, amount
                    """, .text(originalTransactionId), .text(transactionId), .integer(amount), .integer(at), .text(currency),
                    .integer(purchasedAt), .integer(purchasedAt - window), app)
            case .refund(let transactionId):
                credited = try await Self.mirror(transactionId, from: "purchase", as: "refund", at: at, app: app, in: db)
            case .refundReversed(let transactionId):
                credited = try await Self.mirror(transactionId, from: "refund", as: "refund_reversed", at: at, app: app, in: db)
            }
            for row in credited {
                try await db.execute(
                    "UPDATE offer_decisions SET revenue = revenue + $2 WHERE id = $1 AND app = $3",
                    .text(try row.string("decision_id")), .integer(try row.int64("amount")), app)
            }
            return credited.count
        }
    }

    /// Whether `event` can credit any of the repository's app's decisions (a decision it may
    /// follow, or a ledger row to undo).
    private static func mayCredit(_ event: OfferRevenueEvent, window: Int64, in repository: SQLRepository) async throws -> Bool {
        let sql: String
        let binds: [SQLValue]
        switch event {
        case .purchase(let originalTransactionId, _, let purchasedAt, _, let currency):
            sql = """
                SELECT 1 AS found FROM offer_decisions
                WHERE original_transaction_id = $1 AND app = $5 AND currency = $2 AND decided_at <= $3 AND decided_at >= $4 LIMIT 1
                """
            binds = [.text(originalTransactionId), .text(currency), .integer(purchasedAt), .integer(purchasedAt - window),
                     repository.appValue]
        case .refund(let transactionId):
            sql = "SELECT 1 AS found FROM offer_revenue WHERE transaction_id = $1 AND app = $2 AND kind = 'purchase' LIMIT 1"
            binds = [.text(transactionId), repository.appValue]
        case .refundReversed(let transactionId):
            sql = "SELECT 1 AS found FROM offer_revenue WHERE transaction_id = $1 AND app = $2 AND kind = 'refund' LIMIT 1"
            binds = [.text(transactionId), repository.appValue]
        }
        return try await repository.statement { db in try await !db.query(sql, binds).isEmpty }
    }

    /// Ledger rows of kind `kind` undoing each `source` row of `transactionId` of `app` (the
    /// opposite amount).
    private static func mirror(_ transactionId: String, from source: String, as kind: String, at: Int64, app: SQLValue,
                               in db: any SQLExecutor) async throws -> [SQLRow] {
        try await db.query("""
            INSERT INTO offer_revenue (app, decision_id, transaction_id, kind, amount, recorded_at)
            SELECT app, decision_id, transaction_id, $3, -amount, $4 FROM offer_revenue
            WHERE transaction_id = $1 AND app = $5 AND kind = $2
            ON CONFLICT DO NOTHING
            RETURNING decision_id, amount
            """, .text(transactionId), .text(source), .text(kind), .integer(at), app)
    }
}
