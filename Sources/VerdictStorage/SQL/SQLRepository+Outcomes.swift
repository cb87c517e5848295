extension SQLRepository {
    // MARK: Offer outcomes and rule statistics

    func recordOfferOutcome(originalTransactionId: String, offerIdentifier: String?, retained: Bool,
                            notificationUUID: String, actedAt: Int64, attributionWindow: Int64, at: Int64) async throws -> Int {
        try await transaction { db in
            // Open: no outcome yet, decided before now, not this notification's own decision, and
            // the customer acted within the window after the offer's expiry (or the decision).
            let open = """
                original_transaction_id = $1 AND outcome IS NULL AND decided_at <= $2
                AND (notification_uuid IS NULL OR notification_uuid <> $3)
                AND COALESCE(expires_at, decided_at) >= $4
                """
            let binds: [SQLValue] = [
                .text(originalTransactionId), .integer(at), .text(notificationUUID), .integer(actedAt - attributionWindow),
            ]
            var changed = 0
            if let offerIdentifier {
                changed += try await db.query("""
                    UPDATE offer_decisions SET outcome = 'redeemed', outcome_at = $2, outcome_notification_uuid = $3
                    WHERE \(open) AND held_out = 0 AND offer_id = $5
                    RETURNING id
                    """, binds + [.text(offerIdentifier)]).count
            }
            if retained {
                changed += try await db.query("""
                    UPDATE offer_decisions SET outcome = 'retained', outcome_at = $2, outcome_notification_uuid = $3
                    WHERE \(open)
                    RETURNING id
                    """, binds).count
            }
            return changed
        }
    }

    func offerRuleStatistics() async throws -> [OfferRuleStatistics] {
        try await transaction { db in
            try await db.query("""
                SELECT rule_id,
                    COUNT(*) AS decisions,
                    SUM(CASE WHEN offer_id IS NOT NULL AND held_out = 0 THEN 1 ELSE 0 END) AS offers_made,
                    SUM(CASE WHEN held_out = 1 THEN 1 ELSE 0 END) AS held_out,
                    SUM(CASE WHEN outcome = 'redeemed' THEN 1 ELSE 0 END) AS redeemed,
                    SUM(CASE WHEN outcome IS NOT NULL AND held_out = 0 AND offer_id IS NOT NULL THEN 1 ELSE 0 END) AS converted_treatment,
                    SUM(CASE WHEN outcome IS NOT NULL AND held_out = 1 THEN 1 ELSE 0 END) AS converted_holdout
                FROM offer_decisions WHERE rule_id IS NOT NULL
                GROUP BY rule_id ORDER BY rule_id
                """).map { row in
                OfferRuleStatistics(
                    ruleId: try row.string("rule_id"), decisions: try row.int("decisions"),
                    offersMade: try row.int("offers_made"), heldOut: try row.int("held_out"), redeemed: try row.int("redeemed"),
                    convertedTreatment: try row.int("converted_treatment"), convertedHoldout: try row.int("converted_holdout"))
            }
        }
    }
}
