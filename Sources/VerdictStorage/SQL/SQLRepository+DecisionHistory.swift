extension SQLRepository {
    func offerDecisions(decidedIn period: DecisionPeriod, after cursor: DecisionCursor?, limit: Int) async throws
        -> [OfferDecisionRecord] {
        let binds = pageBinds(period, cursor, limit)
        return try await statement { db in
            try await db.query(prepared: OfferDecisionPage.self, binds).map(Self.decisionRecord)
        }
    }

    func consumptionRequests(decidedIn period: DecisionPeriod, after cursor: DecisionCursor?, limit: Int) async throws
        -> [ConsumptionRequestRecord] {
        let binds = pageBinds(period, cursor, limit)
        return try await statement { db in
            try await db.query(prepared: ConsumptionRequestPage.self, binds)
                .map(Self.consumptionRecord)
        }
    }

    func offerDecisions(matching filter: DecisionFilter, limit: Int) async throws -> [OfferDecisionRecord] {
        try await newest(of: "offer_decisions", columns: Self.decisionColumns, filter, offers: true, limit, Self.decisionRecord)
    }

    func consumptionRequests(matching filter: DecisionFilter, limit: Int) async throws -> [ConsumptionRequestRecord] {
        try await newest(of: "consumption_requests", columns: Self.consumptionColumns, filter, offers: false, limit, Self.consumptionRecord)
    }

    /// The newest rows of `table` of the repository's app matching `filter` (an absent criterion
    /// matches every row; the offer criterion applies to offer decisions only), newest first.
    private func newest<Record: Sendable>(
        of table: String, columns: String, _ filter: DecisionFilter, offers: Bool, _ limit: Int,
        _ record: @escaping @Sendable (SQLRow) throws -> Record
    ) async throws -> [Record] {
        var conditions = ["app = $1", "decided_at >= $2", "decided_at < $3"]
        var binds: [SQLValue] = [appValue, .integer(filter.period.since ?? Int64.min), .integer(filter.period.until ?? Int64.max)]
        func add(_ column: String, _ value: String?) {
            guard let value else { return }
            binds.append(.text(value))
            conditions.append("\(column) = $\(binds.count)")
        }
        add("rule_id", filter.ruleId)
        if offers { add("offer_id", filter.offerId) }
        add("outcome", filter.outcome)
        binds.append(.integer(Int64(max(1, limit))))
        let sql = """
            SELECT \(columns) FROM \(table) WHERE \(conditions.joined(separator: " AND "))
            ORDER BY decided_at DESC, id DESC LIMIT $\(binds.count)
            """
        let values = binds
        return try await statement { db in try await db.query(sql, values).map(record) }
    }

    func decisionCounts(decidedIn period: DecisionPeriod) async throws -> (offers: Int, refunds: Int) {
        let binds = [SQLValue.integer(period.since ?? Int64.min), .integer(period.until ?? Int64.max), appValue]
        let row = try await statement { db in
            try await db.query("""
                SELECT (SELECT COUNT(*) FROM offer_decisions WHERE app = $3 AND decided_at >= $1 AND decided_at < $2) AS offers,
                       (SELECT COUNT(*) FROM consumption_requests WHERE app = $3 AND decided_at >= $1 AND decided_at < $2) AS refunds
                """, binds).first
        }
        guard let row else { throw StorageError.queryFailed(reason: "decision counts returned no row") }
        return (try row.int("offers"), try row.int("refunds"))
    }

    /// One page of offer decisions (see ``pageQuery(columns:table:)``), prepared once per connection.
    private enum OfferDecisionPage: SQLStatement {
        static let sql = pageQuery(columns: decisionColumns, table: "offer_decisions")
    }

    /// One page of consumption requests (see ``pageQuery(columns:table:)``), prepared once per connection.
    private enum ConsumptionRequestPage: SQLStatement {
        static let sql = pageQuery(columns: consumptionColumns, table: "consumption_requests")
    }

    /// One page of the app `$6`'s rows in `(decided_at, id)` order: inside the period, after the
    /// cursor (row comparison), served by the `(decided_at, id)` index of migration 10. `$1` is
    /// the later of the period's start and the cursor's instant, so that the index is entered at
    /// the cursor: SQLite seeks with one lower bound of `decided_at`, and with the period's alone
    /// every page would scan the index from the period's start (a replay quadratic in the
    /// decisions).
    private static func pageQuery(columns: String, table: String) -> String {
        """
        SELECT \(columns) FROM \(table)
        WHERE decided_at >= $1 AND decided_at < $2 AND (decided_at, id) > ($3, $4) AND app = $6
        ORDER BY decided_at, id LIMIT $5
        """
    }

    /// The binds of ``pageQuery(columns:table:)``.
    private func pageBinds(_ period: DecisionPeriod, _ cursor: DecisionCursor?, _ limit: Int) -> [SQLValue] {
        [.integer(max(period.since ?? Int64.min, cursor?.decidedAt ?? Int64.min)), .integer(period.until ?? Int64.max),
         .integer(cursor?.decidedAt ?? Int64.min), .text(cursor?.id ?? ""), .integer(Int64(max(1, limit))), appValue]
    }
}
