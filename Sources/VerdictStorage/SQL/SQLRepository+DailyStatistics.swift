extension SQLRepository {
    // MARK: Statistics by day (the rollups of migration 12, per app since migration 19)

    func offerRuleDays(_ days: DayRange) async throws -> [OfferRuleDay] {
        try await rollup(Migrations.offerRuleDays, days) { row in
            let currency = try row.string("currency")
            return OfferRuleDay(
                day: try row.int64("day"), currency: currency.isEmpty ? nil : currency,
                statistics: try Self.offerRuleStatistics(row),
                treatmentRevenue: .init(total: try row.int64("revenue_treatment"), squares: try row.double("revenue_treatment_squares")),
                holdoutRevenue: .init(total: try row.int64("revenue_holdout"), squares: try row.double("revenue_holdout_squares")))
        }
    }

    func refundRuleDays(_ days: DayRange) async throws -> [RefundRuleDay] {
        try await rollup(Migrations.refundRuleDays, days) { row in
            RefundRuleDay(day: try row.int64("day"), statistics: try Self.refundRuleStatistics(row))
        }
    }

    func notificationDays(_ days: DayRange) async throws -> [NotificationDay] {
        try await rollup(Migrations.notificationDays, days) { row in
            let subtype = try row.string("subtype")
            return NotificationDay(
                day: try row.int64("day"), notificationType: try row.string("notification_type"),
                subtype: subtype.isEmpty ? nil : subtype, notifications: try row.int("notifications"))
        }
    }

    // PostgreSQL sums BIGINT columns as NUMERIC: each sum is cast back.

    func offerRuleStatistics() async throws -> [OfferRuleStatistics] {
        let app = appValue
        return try await statement { db in
            try await db.query("""
                SELECT rule_id, CAST(SUM(decisions) AS BIGINT) AS decisions, CAST(SUM(offers_made) AS BIGINT) AS offers_made, CAST(SUM(held_out) AS BIGINT) AS held_out,
                    CAST(SUM(redeemed) AS BIGINT) AS redeemed, CAST(SUM(converted_treatment) AS BIGINT) AS converted_treatment,
                    CAST(SUM(converted_holdout) AS BIGINT) AS converted_holdout, CAST(SUM(apple_offer) AS BIGINT) AS apple_offer,
                    CAST(SUM(switched) AS BIGINT) AS switched, CAST(SUM(renewed) AS BIGINT) AS renewed,
                    CAST(SUM(cancelled) AS BIGINT) AS cancelled, CAST(SUM(added_seats) AS BIGINT) AS added_seats,
                    CAST(SUM(seats_refunded) AS BIGINT) AS seats_refunded, CAST(SUM(seats_unclaimed) AS BIGINT) AS seats_unclaimed,
                    CAST(SUM(assignment_revoked) AS BIGINT) AS assignment_revoked
                FROM offer_rule_days WHERE app = $1 AND rule_id <> '' GROUP BY rule_id ORDER BY rule_id
                """, app).map(Self.offerRuleStatistics)
        }
    }

    func refundRuleStatistics() async throws -> [RefundRuleStatistics] {
        let app = appValue
        return try await statement { db in
            try await db.query("""
                SELECT decided_by, CAST(SUM(requests) AS BIGINT) AS requests, CAST(SUM(sent) AS BIGINT) AS sent, CAST(SUM(no_consent) AS BIGINT) AS no_consent,
                    CAST(SUM(not_sent_other) AS BIGINT) AS not_sent_other, CAST(SUM(failed) AS BIGINT) AS failed, CAST(SUM(missed) AS BIGINT) AS missed,
                    CAST(SUM(granted) AS BIGINT) AS granted, CAST(SUM(declined) AS BIGINT) AS declined, CAST(SUM(reversed) AS BIGINT) AS reversed,
                    CAST(SUM(seats_refunded) AS BIGINT) AS seats_refunded
                FROM refund_rule_days WHERE app = $1 GROUP BY decided_by ORDER BY decided_by
                """, app).map(Self.refundRuleStatistics)
        }
    }

    /// The rows of `rollup` inside `days` (of the repository's app, for a rollup kept per app),
    /// its shards summed.
    private func rollup<Record: Sendable>(
        _ rollup: DailyRollup, _ days: DayRange, _ record: @escaping @Sendable (SQLRow) throws -> Record
    ) async throws -> [Record] {
        let binds: [SQLValue] = [.integer(days.first ?? Int64.min), .integer(days.last ?? Int64.max)] + (rollup.byApp ? [appValue] : [])
        let sql = rollup.query
        return try await statement { db in try await db.query(sql, binds).map(record) }
    }

    private static func offerRuleStatistics(_ row: SQLRow) throws -> OfferRuleStatistics {
        OfferRuleStatistics(
            ruleId: try row.string("rule_id"), decisions: try row.int("decisions"),
            offersMade: try row.int("offers_made"), heldOut: try row.int("held_out"), redeemed: try row.int("redeemed"),
            convertedTreatment: try row.int("converted_treatment"), convertedHoldout: try row.int("converted_holdout"),
            appleOffer: try row.int("apple_offer"), switched: try row.int("switched"), renewed: try row.int("renewed"),
            cancelled: try row.int("cancelled"), addedSeats: try row.int("added_seats"),
            seatsRefunded: try row.int("seats_refunded"), seatsUnclaimed: try row.int("seats_unclaimed"),
            assignmentRevoked: try row.int("assignment_revoked"))
    }

    private static func refundRuleStatistics(_ row: SQLRow) throws -> RefundRuleStatistics {
        RefundRuleStatistics(
            ruleId: try row.string("decided_by"), requests: try row.int("requests"), sent: try row.int("sent"),
            notSentNoConsent: try row.int("no_consent"), notSentOther: try row.int("not_sent_other"),
            failed: try row.int("failed"), missed: try row.int("missed"), granted: try row.int("granted"),
            declined: try row.int("declined"), reversed: try row.int("reversed"), seatsRefunded: try row.int("seats_refunded"))
    }
}
