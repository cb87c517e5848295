extension SQLRepository {
    // MARK: Bulk import of stored decisions

    /// Bound values per statement: below SQLite's limit (32,766) and PostgreSQL's (65,535).
    static let importBindsPerStatement = 30_000

    func importOfferDecisions(_ records: [OfferDecisionRecord]) async throws {
        try await importRows(into: "offer_decisions", columns: Self.decisionColumns, records.map(Self.decisionBinds))
    }

    func importConsumptionRequests(_ records: [ConsumptionRequestRecord]) async throws {
        try await importRows(into: "consumption_requests", columns: Self.consumptionColumns, records.map(Self.consumptionBinds))
    }

    /// Inserts `rows` (each the values of `columns`, in order) in one transaction, as many rows
    /// per statement as the bind limit allows; rows that conflict with a stored one are skipped.
    private func importRows(into table: String, columns: String, _ rows: [[SQLValue]]) async throws {
        guard let width = rows.first?.count else { return }
        let perStatement = max(1, Self.importBindsPerStatement / width)
        try await transaction { db in
            var start = 0
            while start < rows.count {
                let end = min(rows.count, start + perStatement)
                _ = try await db.query(
                    Self.multiRowInsert(into: table, columns: columns, width: width, rows: end - start),
                    Array(rows[start..<end].joined()))
                start = end
            }
        }
    }

    /// `INSERT INTO table (columns) VALUES ($1, …), (…) ON CONFLICT DO NOTHING` for `rows` rows.
    static func multiRowInsert(into table: String, columns: String, width: Int, rows: Int) -> String {
        var sql = "INSERT INTO \(table) (\(columns)) VALUES "
        sql.reserveCapacity(sql.utf8.count + rows * width * 7)
        for row in 0..<rows {
            sql += row == 0 ? "(" : ", ("
            for column in 0..<width {
                if column > 0 { sql += ", " }
                sql += "$\(row * width + column + 1)"
            }
            sql += ")"
        }
        return sql + " ON CONFLICT DO NOTHING"
    }
}
