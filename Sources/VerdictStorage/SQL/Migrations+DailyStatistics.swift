extension Migrations {
    /// Migration 12: the console's statistics by day, and net revenue per offer decision.
    ///
    /// - `offer_decisions.currency` (the subscription's currency when decided) and `.revenue` (the
    ///   net revenue the customer brought in that currency within the attribution window after the
    ///   decision, in milliunits), kept from the `offer_revenue` ledger — one row per decision,
    ///   transaction and kind, so a notification processed twice counts once. Decisions stored
    ///   before this version have no currency and count no revenue.
    /// - Three ``DailyRollup``s: offer decisions per day, rule and currency; consumption requests
    ///   per day and deciding rule; notifications per day and type.
    /// - Indexes for the console's decision filters (rule, outcome), newest first.
    static func dailyStatistics(_ dialect: SQLDialect) -> [String] {
        [
            "ALTER TABLE offer_decisions ADD COLUMN currency TEXT",
            "ALTER TABLE offer_decisions ADD COLUMN revenue BIGINT NOT NULL DEFAULT 0",
            """
            CREATE TABLE offer_revenue (
                decision_id TEXT NOT NULL,
                transaction_id TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('purchase', 'refund', 'refund_reversed')),
                amount BIGINT NOT NULL,
                recorded_at BIGINT NOT NULL,
                PRIMARY KEY (decision_id, transaction_id, kind)
            )
            """,
            "CREATE INDEX offer_revenue_transaction ON offer_revenue (transaction_id, kind)",
            "CREATE INDEX offer_decisions_rule ON offer_decisions (rule_id, decided_at, id)",
            "CREATE INDEX offer_decisions_outcome ON offer_decisions (outcome, decided_at, id)",
            "CREATE INDEX consumption_requests_rule ON consumption_requests (rule_id, decided_at, id)",
            "CREATE INDEX consumption_requests_outcome ON consumption_requests (outcome, decided_at, id)",
            // Queue statistics (the console, /metrics) count unfinished jobs without reading the done ones.
            "CREATE INDEX jobs_unfinished ON jobs (kind) WHERE state <> 'done'",
        ] + offerRuleDays12.statements(dialect) + refundRuleDays12.statements(dialect) + notificationDays12.statements(dialect)
    }

    /// The UTC day (days since 1970-01-01) of a UNIX-millisecond column of the source row.
    private static func day(_ column: String) -> String { "{row}.\(column) / 86400000" }

    private static func when(_ condition: String, _ value: String = "1") -> String {
        "CASE WHEN \(condition) THEN \(value) ELSE 0 END"
    }

    /// Offer decisions per day, rule and currency as migration 12 created them; migration 15 adds
    /// the customers' actions (``offerRuleDays15``), migration 18 the seat actions (``offerRuleDays18``), and
    /// migration 19 keeps them per app (``offerRuleDays``).
    static let offerRuleDays12 = DailyRollup(
        table: "offer_rule_days", source: "offer_decisions", shardBy: "decided_at",
        watched: ["decided_at", "rule_id", "currency", "offer_id", "held_out", "outcome", "revenue"],
        keys: [
            .init(column: "day", type: "BIGINT", expression: day("decided_at")),
            .init(column: "rule_id", type: "TEXT", expression: "COALESCE({row}.rule_id, '')"),
            .init(column: "currency", type: "TEXT", expression: "COALESCE({row}.currency, '')"),
        ],
        measures: {
            let treatment = "{row}.offer_id IS NOT NULL AND {row}.held_out = 0"
            let holdout = "{row}.held_out = 1"
            let squared = "CAST({row}.revenue AS DOUBLE PRECISION) * {row}.revenue"
            return [
                .init(column: "decisions", expression: "1"),
                .init(column: "offers_made", expression: when(treatment)),
                .init(column: "held_out", expression: when(holdout)),
                .init(column: "redeemed", expression: when("{row}.outcome = 'redeemed'")),
                .init(column: "converted_treatment", expression: when("{row}.outcome IS NOT NULL AND \(treatment)")),
                .init(column: "converted_holdout", expression: when("{row}.outcome IS NOT NULL AND \(holdout)")),
                .init(column: "revenue_treatment", expression: when(treatment, "{row}.revenue")),
                .init(column: "revenue_treatment_squares", type: "DOUBLE PRECISION", expression: when(treatment, squared)),
                .init(column: "revenue_holdout", expression: when(holdout, "{row}.revenue")),
                .init(column: "revenue_holdout_squares", type: "DOUBLE PRECISION", expression: when(holdout, squared)),
            ]
        }())

    /// Offer decisions per day, rule (`''`: none) and currency (`''`: unknown), as migration 15
    /// left them. Treatment: an offer was made; holdout: held out. Revenue sums and sums of squares
    /// per arm give each arm's mean and variance of net revenue per decided customer. Since
    /// migration 15, also what customers did that the outcome alone does not tell: took Apple's
    /// retention offer, switched plan, renewed, cancelled.
    static let offerRuleDays15 = offerRuleDays12.adding(
        measures: [
            .init(column: "apple_offer", expression: when("{row}.customer_action = 'apple_offer'")),
            .init(column: "switched", expression: when("{row}.customer_action = 'switched'")),
            .init(column: "renewed", expression: when("{row}.customer_action = 'renewed'")),
            .init(column: "cancelled", expression: when("{row}.customer_action = 'cancelled'")),
        ],
        watching: ["customer_action"])

    /// Migration 15: what the customer did after an offer decision (``CustomerAction``) and the
    /// `offerType` it came with, counted per rule and day.
    static func customerActions(_ dialect: SQLDialect) -> [String] {
        [
            "ALTER TABLE offer_decisions ADD COLUMN customer_action TEXT",
            "ALTER TABLE offer_decisions ADD COLUMN action_offer_type BIGINT",
        ] + offerRuleDays15.upgrade(from: offerRuleDays12, dialect)
    }

    /// Offer decisions per day, rule and currency (``offerRuleDays15``) and, since migration 18,
    /// what customers did to the seats of a multiseat subscription: added seats (a stay), and the
    /// seat losses that leave a decision open — seats refunded, seats unclaimed, a member's
    /// assignment revoked.
    static let offerRuleDays18 = offerRuleDays15.adding(
        measures: [
            .init(column: "added_seats", expression: when("{row}.customer_action = 'added_seats'")),
            .init(column: "seats_refunded", expression: when("{row}.customer_action = 'seats_refunded'")),
            .init(column: "seats_unclaimed", expression: when("{row}.customer_action = 'seats_unclaimed'")),
            .init(column: "assignment_revoked", expression: when("{row}.customer_action = 'assignment_revoked'")),
        ],
        watching: [])

    /// Consumption requests per day and what decided them (``refundRuleDays12``) and, since
    /// migration 18, the requests whose latest outcome from Apple is a seat refund
    /// (`REFUND_SEATS`: some seats of a multiseat purchase, not a full refund).
    static let refundRuleDays18 = refundRuleDays12.adding(
        measures: [.init(column: "seats_refunded", expression: when("{row}.outcome = 'REFUND_SEATS'"))],
        watching: [])

    /// Migration 18: the seat actions after offer decisions and the seat refunds of consumption
    /// requests, counted per rule and day. No stored row has them yet: the new sums start at 0.
    static func seatOutcomes(_ dialect: SQLDialect) -> [String] {
        offerRuleDays18.upgrade(from: offerRuleDays15, dialect) + refundRuleDays18.upgrade(from: refundRuleDays12, dialect)
    }

    /// Consumption requests per day and what decided them (rule, blocking rule, or `default`), as
    /// migration 12 created them.
    static let refundRuleDays12 = DailyRollup(
        table: "refund_rule_days", source: "consumption_requests", shardBy: "decided_at",
        watched: ["decided_at", "rule_id", "blocked_by", "state", "consent_basis", "outcome"],
        keys: [
            .init(column: "day", type: "BIGINT", expression: day("decided_at")),
            .init(column: "decided_by", type: "TEXT", expression: "COALESCE({row}.rule_id, {row}.blocked_by, 'default')"),
        ],
        measures: [
            .init(column: "requests", expression: "1"),
            .init(column: "sent", expression: when("{row}.state = 'sent'")),
            .init(column: "no_consent", expression: when("{row}.state = 'not_sent' AND {row}.consent_basis IN ('refused', 'none')")),
            .init(column: "not_sent_other",
                  expression: when("{row}.state = 'not_sent' AND {row}.consent_basis IN ('recorded', 'assumed')")),
            .init(column: "failed", expression: when("{row}.state = 'failed'")),
            .init(column: "missed", expression: when("{row}.state = 'missed'")),
            .init(column: "granted", expression: when("{row}.outcome IN ('REFUND', 'REFUND_REVERSED')")),
            .init(column: "declined", expression: when("{row}.outcome = 'REFUND_DECLINED'")),
            .init(column: "reversed", expression: when("{row}.outcome = 'REFUND_REVERSED'")),
        ])

    /// Migration 19's part: the three rollups kept per app.
    static func dailyStatisticsByApp(_ dialect: SQLDialect) -> [String] {
        offerRuleDays.perApp(from: offerRuleDays18, dialect) + refundRuleDays.perApp(from: refundRuleDays18, dialect)
            + notificationDays.perApp(from: notificationDays12, dialect)
    }

    /// The rollups as migration 19 left them: per app (``dailyStatisticsByApp(_:)``).
    static let offerRuleDays = offerRuleDays18.keptPerApp
    static let refundRuleDays = refundRuleDays18.keptPerApp
    static let notificationDays = notificationDays12.keptPerApp

    /// Notifications received per day, type and subtype (`''`: none), as migration 12 created them.
    static let notificationDays12 = DailyRollup(
        table: "notification_days", source: "notifications", shardBy: "signed_date",
        watched: ["received_at", "notification_type", "subtype"],
        keys: [
            .init(column: "day", type: "BIGINT", expression: day("received_at")),
            .init(column: "notification_type", type: "TEXT", expression: "{row}.notification_type"),
            .init(column: "subtype", type: "TEXT", expression: "COALESCE({row}.subtype, '')"),
        ],
        measures: [.init(column: "notifications", expression: "1")])
}
