/// A table of per-day sums over another table, kept exact by triggers: every insert adds a row's
/// contribution to its day's sums, every update takes the old contribution away and adds the new
/// one, every delete takes it away — in the writing transaction, on every write path (including
/// ones added later). The console's Overview and Rules pages and `/v1/rules/stats` read these
/// instead of aggregating a million decisions per request.
///
/// A rollup is described once; its triggers (SQLite: one per event; PostgreSQL: one PL/pgSQL
/// function), its backfill and its query are generated from the description, for both backends.
/// Expressions are written with `{row}` standing for the source row (`NEW`, `OLD`, or the
/// backfill's alias).
///
/// Each day's sums are spread over ``shards`` rows (by a timestamp of the source row, modulo), so
/// that concurrent writers on PostgreSQL — every notification taken in at once is of the same day
/// and type — rarely wait for one another's row lock; the query sums the shards.
struct DailyRollup: Sendable {
    /// A grouping column of the rollup and the expression computing it from a source row.
    struct Key: Sendable {
        var column: String
        var type: String
        var expression: String
    }

    /// A summed column of the rollup and the source row's contribution to it.
    struct Measure: Sendable {
        var column: String
        var type: String = "BIGINT"
        var expression: String
    }

    /// The rollup's table.
    var table: String
    /// The table it sums.
    var source: String
    /// An integer column of the source row (a timestamp) that picks the row's shard.
    var shardBy: String
    /// The source columns whose update can change a contribution (the update trigger's `OF` list).
    var watched: [String]
    var keys: [Key]
    var measures: [Measure]
    /// Whether the sums are kept per app (since migration 19): the app is the first stored key,
    /// and ``query`` reads one app's rows (`$3`).
    var byApp = false

    /// Rows per day and key.
    static let shards = 16

    /// The grouping columns stored: the keys and the shard.
    private var storedKeys: [Key] {
        (byApp ? [Key(column: "app", type: "TEXT", expression: "{row}.app")] : [])
            + keys + [Key(column: "shard", type: "BIGINT", expression: "{row}.\(shardBy) % \(Self.shards)")]
    }

    /// The rows of days `$1` to `$2` (both included) of the app `$3` when kept per app, the shards
    /// summed, in key order (day first).
    var query: String {
        let keyList = keys.map(\.column).joined(separator: ", ")
        // PostgreSQL sums BIGINT columns as NUMERIC: each integer sum is cast back.
        let sums = measures.map {
            $0.type == "BIGINT" ? "CAST(SUM(\($0.column)) AS BIGINT) AS \($0.column)" : "SUM(\($0.column)) AS \($0.column)"
        }
        return """
            SELECT \(keyList), \(sums.joined(separator: ", ")) FROM \(table)
            WHERE day >= $1 AND day <= $2\(byApp ? " AND app = $3" : "") GROUP BY \(keyList) ORDER BY \(keyList)
            """
    }

    /// A condition or expression in terms of `row`.
    private func bind(_ expression: String, to row: String) -> String {
        expression.replacingOccurrences(of: "{row}", with: row)
    }

    /// Creates the table, fills it from the rows already stored, and creates its triggers.
    func statements(_ dialect: SQLDialect) -> [String] {
        let columns = storedKeys.map { "\($0.column) \($0.type) NOT NULL" } + measures.map { "\($0.column) \($0.type) NOT NULL DEFAULT 0" }
        let keyList = storedKeys.map(\.column).joined(separator: ", ")
        let create = """
            CREATE TABLE \(table) (
                \(columns.joined(separator: ",\n    ")),
                PRIMARY KEY (\(keyList))
            )
            """
        let keyExpressions = storedKeys.map { bind($0.expression, to: "r") }
        let backfill = """
            INSERT INTO \(table) (\(keyList), \(measures.map(\.column).joined(separator: ", ")))
            SELECT \((keyExpressions + measures.map { "SUM(\(bind($0.expression, to: "r")))" }).joined(separator: ", "))
            FROM \(source) AS r GROUP BY \(keyExpressions.joined(separator: ", "))
            """
        return [create, backfill] + triggers(dialect)
    }

    /// A later version of this rollup with more measures (and watched columns): adds their
    /// columns and replaces the triggers. The new measures start at 0: they must be 0 for every
    /// row already stored (e.g. they read a column added in the same migration).
    func adding(measures added: [Measure], watching: [String]) -> DailyRollup {
        var next = self
        next.measures += added
        next.watched += watching
        return next
    }

    /// The statements turning the rollup `previous` into this one (see ``adding(measures:watching:)``).
    func upgrade(from previous: DailyRollup, _ dialect: SQLDialect) -> [String] {
        let added = measures.filter { measure in !previous.measures.contains { $0.column == measure.column } }
        let columns = added.map { "ALTER TABLE \(table) ADD COLUMN \($0.column) \($0.type) NOT NULL DEFAULT 0" }
        return columns + dropTriggers(dialect) + triggers(dialect)
    }

    /// This rollup kept per app (see ``perApp(from:_:)``).
    var keptPerApp: DailyRollup {
        var next = self
        next.byApp = true
        return next
    }

    /// This rollup kept per app: the statements drop the table and its triggers, and create them
    /// anew with the app as a key, filled from the rows stored (all of app `''` when migration 19
    /// runs).
    func perApp(from previous: DailyRollup, _ dialect: SQLDialect) -> [String] {
        precondition(byApp && !previous.byApp)
        return dropTriggers(dialect) + ["DROP TABLE \(table)"] + statements(dialect)
    }

    /// Drops the triggers (and PostgreSQL's function) that ``triggers(_:)`` created.
    private func dropTriggers(_ dialect: SQLDialect) -> [String] {
        switch dialect.backend {
        case .sqlite: ["insert", "update", "delete"].map { "DROP TRIGGER \(table)_\($0)" }
        case .postgres: ["DROP TRIGGER \(table)_rollup ON \(source)", "DROP FUNCTION verdict_\(table)()"]
        }
    }

    /// Adds `row`'s contribution (`subtract`: takes it away) to its day's sums.
    private func upsert(_ row: String, subtract: Bool) -> String {
        let columns = storedKeys.map(\.column) + measures.map(\.column)
        let values = storedKeys.map { bind($0.expression, to: row) }
            + measures.map { subtract ? "-(\(bind($0.expression, to: row)))" : bind($0.expression, to: row) }
        let sums = measures.map { "\($0.column) = \(table).\($0.column) + excluded.\($0.column)" }
        return """
            INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))
            ON CONFLICT (\(storedKeys.map(\.column).joined(separator: ", "))) DO UPDATE SET \(sums.joined(separator: ", "))
            """
    }

    private func triggers(_ dialect: SQLDialect) -> [String] {
        let watchedList = watched.joined(separator: ", ")
        switch dialect.backend {
        case .sqlite:
            return [
                "CREATE TRIGGER \(table)_insert AFTER INSERT ON \(source) BEGIN \(upsert("NEW", subtract: false)); END",
                """
                CREATE TRIGGER \(table)_update AFTER UPDATE OF \(watchedList) ON \(source)
                BEGIN \(upsert("OLD", subtract: true)); \(upsert("NEW", subtract: false)); END
                """,
                "CREATE TRIGGER \(table)_delete AFTER DELETE ON \(source) BEGIN \(upsert("OLD", subtract: true)); END",
            ]
        case .postgres:
            return [
                """
                CREATE FUNCTION verdict_\(table)() RETURNS trigger LANGUAGE plpgsql AS $rollup$
                BEGIN
                    IF TG_OP IN ('UPDATE', 'DELETE') THEN
                        \(upsert("OLD", subtract: true));
                    END IF;
                    IF TG_OP IN ('INSERT', 'UPDATE') THEN
                        \(upsert("NEW", subtract: false));
                    END IF;
                    RETURN NULL;
                END
                $rollup$
                """,
                """
                CREATE TRIGGER \(table)_rollup AFTER INSERT OR DELETE OR UPDATE OF \(watchedList) ON \(source)
                FOR EACH ROW EXECUTE FUNCTION verdict_\(table)()
                """,
            ]
        }
    }
}
