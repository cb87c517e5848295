import Testing
import VerdictTestSupport

@testable import VerdictStorage

@Suite("Storage: prepared statements")
struct SQLStatementTests {
    private enum First: SQLStatement { static let sql = "SELECT 1 AS n" }
    private enum Same: SQLStatement { static let sql = "SELECT 1 AS n" }
    private enum Other: SQLStatement { static let sql = "SELECT 2 AS n" }
    private enum Empty: SQLStatement { static let sql = "" }
    private enum Letter: SQLStatement { static let sql = "a" }
    private enum Bound: SQLStatement { static let sql = "SELECT CAST($1 AS BIGINT) AS n, $2 AS t" }

    @Test("a statement's prepared name is a stable hash of its SQL, distinct for distinct SQL")
    func preparedNames() {
        #expect(First.preparedName == Same.preparedName)
        #expect(First.preparedName != Other.preparedName)
        #expect(First.preparedName.hasPrefix("verdict_") && First.preparedName.utf8.count <= 63)
        // Published FNV-1a 64 values: the empty string hashes to the offset basis, "a" to af63dc4c8601ec8c.
        #expect(Empty.preparedName == "verdict_cbf29ce484222325")
        #expect(Letter.preparedName == "verdict_af63dc4c8601ec8c")
    }

    @Test("prepared statements run repeatedly, with nulls and values, on every connection", arguments: TestBackend.selected)
    func repeatedExecution(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            guard let sql = repository as? SQLRepository else { Issue.record("not a SQLRepository"); return }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<8 {
                    group.addTask {
                        for round in 0..<5 {
                            let value = Int64(task * 10 + round)
                            let rows = try await sql.driver.autocommit(timeout: .seconds(10)) { db in
                                try await db.query(Bound.self, .integer(value), round == 2 ? .null : .text("t\(round)"))
                            }
                            #expect(try rows.first?.int64("n") == value)
                            #expect(try rows.first?.optionalString("t") == (round == 2 ? nil : "t\(round)"))
                            #expect(try await sql.driver.autocommit(timeout: .seconds(10)) { db in
                                try await db.query(First.self)
                            }.first?.int64("n") == 1)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}
