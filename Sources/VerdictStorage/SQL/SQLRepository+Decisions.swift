extension SQLRepository {
    // MARK: Offer decisions

    static let decisionColumns = """
        id, original_transaction_id, notification_uuid, trigger_name, bundle_hash, rule_id, rule_line, offer_id,
        offer_type, product_id, held_out, decided_at, expires_at, record_json, outcome, outcome_at,
        outcome_notification_uuid
        """

    func insertOfferDecision(_ decision: OfferDecisionRecord, followUp: NewJob?) async throws -> OfferDecisionRecord {
        try await transaction { db in
            let inserted = try await db.query("""
                INSERT INTO offer_decisions (\(Self.decisionColumns))
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
                ON CONFLICT (notification_uuid) DO NOTHING
                RETURNING id
                """,
                .text(decision.id), .text(decision.originalTransactionId), SQLValue(decision.notificationUUID),
                .text(decision.trigger), .text(decision.bundleHash), SQLValue(decision.ruleId), SQLValue(decision.ruleLine),
                SQLValue(decision.offerId), SQLValue(decision.offerType), SQLValue(decision.productId),
                .integer(decision.heldOut ? 1 : 0), .integer(decision.decidedAt), SQLValue(decision.expiresAt),
                .text(decision.json), SQLValue(decision.outcome), SQLValue(decision.outcomeAt),
                SQLValue(decision.outcomeNotificationUUID))
            if !inserted.isEmpty {
                if let followUp { _ = try await Self.enqueue(followUp, in: db) }
                return decision
            }
            guard let uuid = decision.notificationUUID,
                  let existing = try await db.query(
                    "SELECT \(Self.decisionColumns) FROM offer_decisions WHERE notification_uuid = $1", .text(uuid)).first
            else { throw StorageError.queryFailed(reason: "offer decision \(decision.id) was neither stored nor found") }
            return try Self.decisionRecord(existing)
        }
    }

    func offerDecision(id: String) async throws -> OfferDecisionRecord? {
        try await self.statement { db in
            try await db.query("SELECT \(Self.decisionColumns) FROM offer_decisions WHERE id = $1", .text(id))
                .first.map(Self.decisionRecord)
        }
    }

    func offerDecisions(originalTransactionId: String, limit: Int) async throws -> [OfferDecisionRecord] {
        try await self.statement { db in
            try await db.query("""
                SELECT \(Self.decisionColumns) FROM offer_decisions WHERE original_transaction_id = $1
                ORDER BY decided_at DESC, id DESC LIMIT $2
                """, .text(originalTransactionId), .integer(Int64(max(1, limit)))).map(Self.decisionRecord)
        }
    }

    func pendingOffer(originalTransactionId: String, now: Int64) async throws -> OfferDecisionRecord? {
        try await self.statement { db in
            try await db.query("""
                SELECT \(Self.decisionColumns) FROM offer_decisions
                WHERE original_transaction_id = $1 AND offer_id IS NOT NULL AND held_out = 0 AND expires_at > $2
                ORDER BY decided_at DESC, id DESC LIMIT 1
                """, .text(originalTransactionId), .integer(now)).first.map(Self.decisionRecord)
        }
    }

    func grantedOffers(originalTransactionId: String, since: Int64) async throws -> Int {
        try await count("original_transaction_id", originalTransactionId, since: since)
    }

    func grantedOffers(offerId: String, since: Int64) async throws -> Int {
        try await count("offer_id", offerId, since: since)
    }

    private func count(_ column: String, _ value: String, since: Int64) async throws -> Int {
        try await self.statement { db in
            try await db.query("""
                SELECT COUNT(*) AS granted FROM offer_decisions
                WHERE \(column) = $1 AND offer_id IS NOT NULL AND held_out = 0 AND decided_at >= $2
                """, .text(value), .integer(since)).first?.int("granted") ?? 0
        }
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
            outcomeNotificationUUID: try row.optionalString("outcome_notification_uuid"))
    }
}
