extension SQLRepository {
    // MARK: Offer decisions

    static let decisionColumns = """
        id, original_transaction_id, notification_uuid, trigger_name, bundle_hash, rule_id, rule_line, offer_id,
        offer_type, product_id, held_out, decided_at, expires_at, record_json, outcome, outcome_at,
        outcome_notification_uuid, customer_unit, currency, revenue, customer_action, action_offer_type, answered_late
        """

    func insertOfferDecision(_ decision: OfferDecisionRecord, followUp: NewJob?, caps: [OfferCap]) async throws -> OfferDecisionInsert {
        let locks = backend == .postgres
        let app = self.app
        return try await transaction { db in
            // Each cap is counted under its lock (PostgreSQL: an advisory lock per app and scope
            // held to the end of the transaction; SQLite: the transaction is the only writer), so
            // two instances granting the app's last slot at once cannot both see it free.
            for cap in caps.sorted(by: { $0.lockName < $1.lockName }) {
                if locks {
                    // A child span of the decision's: how long this decision queued behind another.
                    try await DatabaseSpan.lockWait("wait for cap lock", attributes: cap.spanAttributes) {
                        _ = try await db.query("SELECT pg_advisory_xact_lock($1) AS locked", .integer(cap.lockKey(app: app)))
                    }
                }
                if try await Self.granted(cap.scope, since: cap.since, app: app, in: db) >= cap.max { return .capped(cap) }
            }
            let inserted = try await db.query("""
                INSERT INTO offer_decisions (app, \(Self.decisionColumns))
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24)
                ON CONFLICT (notification_uuid) DO NOTHING
                RETURNING id
                """, [.text(app)] + Self.decisionBinds(decision))
            if !inserted.isEmpty {
                if let followUp { _ = try await Self.enqueue(followUp, app: app, in: db) }
                return .stored(decision)
            }
            // Notification UUIDs are Apple's, unique across apps: the stored decision is this app's.
            guard let uuid = decision.notificationUUID,
                  let existing = try await db.query(
                    "SELECT \(Self.decisionColumns) FROM offer_decisions WHERE notification_uuid = $1 AND app = $2",
                    .text(uuid), .text(app)).first
            else { throw StorageError.queryFailed(reason: "offer decision \(decision.id) was neither stored nor found") }
            return .stored(try Self.decisionRecord(existing))
        }
    }

    func offerDecision(id: String) async throws -> OfferDecisionRecord? {
        let app = appValue
        return try await self.statement { db in
            try await db.query("SELECT \(Self.decisionColumns) FROM offer_decisions WHERE id = $1 AND app = $2", .text(id), app)
                .first.map(Self.decisionRecord)
        }
    }

    func offerDecisions(originalTransactionId: String, limit: Int) async throws -> [OfferDecisionRecord] {
        let app = appValue
        return try await self.statement { db in
            try await db.query("""
                SELECT \(Self.decisionColumns) FROM offer_decisions WHERE original_transaction_id = $1 AND app = $3
                ORDER BY decided_at DESC, id DESC LIMIT $2
                """, .text(originalTransactionId), .integer(Int64(max(1, limit))), app).map(Self.decisionRecord)
        }
    }

    func pendingOffer(originalTransactionId: String, now: Int64) async throws -> OfferDecisionRecord? {
        let app = appValue
        return try await self.statement { db in
            try await db.query("""
                SELECT \(Self.decisionColumns) FROM offer_decisions
                WHERE original_transaction_id = $1 AND app = $3 AND offer_id IS NOT NULL AND held_out = 0 AND answered_late = 0
                    AND expires_at > $2
                ORDER BY decided_at DESC, id DESC LIMIT 1
                """, .text(originalTransactionId), .integer(now), app).first.map(Self.decisionRecord)
        }
    }

    func markAnsweredLate(decisionId: String, withdrawing followUpKey: String?) async throws -> Bool {
        let app = appValue
        return try await transaction { db in
            let marked = try await db.query(
                "UPDATE offer_decisions SET answered_late = 1 WHERE id = $1 AND app = $2 AND answered_late = 0 RETURNING id",
                .text(decisionId), app)
            if !marked.isEmpty, let followUpKey {
                try await db.execute(
                    "DELETE FROM jobs WHERE app = $2 AND dedupe_key = $1 AND state = 'queued'", .text(followUpKey), app)
            }
            return !marked.isEmpty
        }
    }

    func grantedOffers(_ scope: OfferCap.Scope, since: Int64) async throws -> Int {
        let app = self.app
        return try await self.statement { db in try await Self.granted(scope, since: since, app: app, in: db) }
    }

    /// Offers of `app` granted in `scope` since `since` (what a cap counts).
    private static func granted(_ scope: OfferCap.Scope, since: Int64, app: String, in db: any SQLExecutor) async throws -> Int {
        let (column, value) = scope.column
        return try await db.query("""
            SELECT COUNT(*) AS granted FROM offer_decisions
            WHERE \(column) = $1 AND app = $3 AND offer_id IS NOT NULL AND held_out = 0 AND answered_late = 0 AND decided_at >= $2
            """, .text(value), .integer(since), .text(app)).first?.int("granted") ?? 0
    }

    /// The values of `decisionColumns` for `decision`, in order.
    static func decisionBinds(_ decision: OfferDecisionRecord) -> [SQLValue] {
        [.text(decision.id), .text(decision.originalTransactionId), SQLValue(decision.notificationUUID),
         .text(decision.trigger), .text(decision.bundleHash), SQLValue(decision.ruleId), SQLValue(decision.ruleLine),
         SQLValue(decision.offerId), SQLValue(decision.offerType), SQLValue(decision.productId),
         .integer(decision.heldOut ? 1 : 0), .integer(decision.decidedAt), SQLValue(decision.expiresAt),
         .text(decision.json), SQLValue(decision.outcome), SQLValue(decision.outcomeAt),
         SQLValue(decision.outcomeNotificationUUID), .text(decision.customerUnit ?? decision.originalTransactionId),
         SQLValue(decision.currency), .integer(decision.revenue), SQLValue(decision.action?.rawValue),
         SQLValue(decision.actionOfferType.map(Int64.init)), .integer(decision.answeredLate ? 1 : 0)]
    }

    static func decisionRecord(_ row: SQLRow) throws -> OfferDecisionRecord {
        OfferDecisionRecord(
            id: try row.string("id"), originalTransactionId: try row.string("original_transaction_id"),
            notificationUUID: try row.optionalString("notification_uuid"), trigger: try row.string("trigger_name"),
            bundleHash: try row.string("bundle_hash"), ruleId: try row.optionalString("rule_id"),
            ruleLine: try row.optionalInt64("rule_line").map(Int.init), offerId: try row.optionalString("offer_id"),
            offerType: try row.optionalString("offer_type"), productId: try row.optionalString("product_id"),
            heldOut: try row.int64("held_out") != 0, decidedAt: try row.int64("decided_at"),
            expiresAt: try row.optionalInt64("expires_at"), json: try row.string("record_json"),
            outcome: try row.optionalString("outcome"), outcomeAt: try row.optionalInt64("outcome_at"),
            outcomeNotificationUUID: try row.optionalString("outcome_notification_uuid"),
            customerUnit: try row.optionalString("customer_unit"), currency: try row.optionalString("currency"),
            revenue: try row.int64("revenue"), action: try row.optionalString("customer_action").flatMap { CustomerAction(rawValue: $0) },
            actionOfferType: try row.optionalInt64("action_offer_type").flatMap { Int32(exactly: $0) },
            answeredLate: try row.int64("answered_late") != 0)
    }
}
