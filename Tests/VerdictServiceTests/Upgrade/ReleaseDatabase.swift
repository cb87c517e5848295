import AppStoreServer
import Foundation
import VerdictRequests
import VerdictTestSupport
@testable import VerdictStorage

/// What an earlier release wrote, kept as a fixture (`Fixtures/release-<commit>.zip`): the rows of
/// every table at that release's schema version (`rows.json`), and the answers its API gave to
/// every lookup of them (`answers.json`, with the instant they were taken).
///
/// The fixture was made by running that release's `verdict demo` (SQLite), asking its API every
/// lookup of the data it held, and exporting the rows. ``write(to:)`` loads the same rows into a
/// database of either backend at that schema version, as that release would have left it.
struct ReleaseDatabase {
    struct Table {
        var columns: [String]
        var rows: [[JSONValue]]
    }

    struct Answer {
        var path: String
        var status: Int
        var body: JSONValue
    }

    var schemaVersion: Int
    var tables: [String: Table]
    var answers: [Answer]
    /// When the answers were taken (UNIX ms): the service answers at this instant again.
    var capturedAt: Int64

    static func load(_ name: String) throws -> ReleaseDatabase {
        guard let url = Bundle.module.url(forResource: name, withExtension: "zip", subdirectory: "Fixtures") else {
            throw ServiceTestError("the fixture \(name).zip is missing")
        }
        let files = Dictionary(uniqueKeysWithValues: try ZipArchive.files(in: Data(contentsOf: url), limit: 16 << 20))
        guard let rows = files["rows.json"].flatMap(JSONValue.parse)?.objectValue,
              let answers = files["answers.json"].flatMap(JSONValue.parse)?.objectValue,
              let version = rows["schemaVersion"]?.integerValue, let capturedAt = answers["capturedAt"]?.integerValue
        else { throw ServiceTestError("the fixture \(name).zip is not readable") }
        var tables: [String: Table] = [:]
        for (name, table) in rows["tables"]?.objectValue ?? [:] {
            tables[name] = Table(
                columns: table.objectValue?["columns"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                rows: table.objectValue?["rows"]?.arrayValue?.compactMap(\.arrayValue) ?? [])
        }
        let lookups = (answers["answers"]?.arrayValue ?? []).compactMap(\.objectValue).map {
            Answer(path: $0["path"]?.stringValue ?? "", status: Int($0["status"]?.integerValue ?? 0), body: $0["body"] ?? .null)
        }
        return ReleaseDatabase(schemaVersion: Int(version), tables: tables, answers: lookups, capturedAt: capturedAt)
    }

    /// The daily sums are kept by triggers from the rows they sum: loading those rows refills them.
    private static let rollups: Set<String> = ["notification_days", "offer_rule_days", "refund_rule_days"]
    /// Tables other rows refer to, loaded first.
    private static let parents = ["notifications", "consumption_requests"]

    /// Migrates the empty database `url` to the fixture's schema version and loads its rows.
    func write(to url: String) async throws {
        let opened = try await RepositoryFactory.open(databaseURL: try DatabaseURL(parsing: url), logger: TestDatabase.logger)
        guard let repository = opened as? SQLRepository else { throw ServiceTestError("not the SQL repository") }
        do {
            try await repository.migrate(through: schemaVersion)
            let names = Self.parents + tables.keys.sorted().filter { !Self.parents.contains($0) && !Self.rollups.contains($0) }
            let backend = repository.backend
            let tables = self.tables
            try await repository.transaction { db in
                for name in names {
                    guard let table = tables[name], !table.rows.isEmpty else { continue }
                    let placeholders = (1...table.columns.count).map { "$\($0)" }.joined(separator: ", ")
                    let sql = "INSERT INTO \(name) (\(table.columns.joined(separator: ", "))) VALUES (\(placeholders))"
                    for row in table.rows { _ = try await db.query(sql, row.map(Self.value)) }
                    if backend == .postgres, table.columns.contains("id"), name != "offer_decisions", name != "consumption_requests",
                       name != "rule_replays" {
                        _ = try await db.query("SELECT setval(pg_get_serial_sequence('\(name)', 'id'), (SELECT MAX(id) FROM \(name))) AS n")
                    }
                }
            }
        } catch {
            try? await repository.shutdown()
            throw error
        }
        try await repository.shutdown()
    }

    private static func value(_ json: JSONValue) -> SQLValue {
        switch json {
        case .integer(let value): .integer(value)
        case .string(let value): .text(value)
        // A REAL column's value is written {"real": x}: JSON alone cannot tell 2.0 from 2.
        case .object(let object):
            switch object["real"] {
            case .number(let value)?: .real(value)
            case .integer(let value)?: .real(Double(value))
            default: .null
            }
        default: .null
        }
    }
}
