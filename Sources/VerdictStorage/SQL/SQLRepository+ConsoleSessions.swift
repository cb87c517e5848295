import Foundation

extension SQLRepository {
    static let consoleSessionColumns = "id_digest, role, csrf_token, created_at, expires_at, apps, token_binding"

    func createConsoleSession(_ session: ConsoleSessionRecord) async throws {
        let apps = try session.apps.map { String(decoding: try JSONEncoder().encode($0.sorted()), as: UTF8.self) }
        try await transaction { db in
            try await db.execute("DELETE FROM console_sessions WHERE expires_at <= $1", .integer(session.createdAt))
            try await db.execute(
                "INSERT INTO console_sessions (\(Self.consoleSessionColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                .text(session.idDigest), .text(session.role), .text(session.csrfToken), .integer(session.createdAt),
                .integer(session.expiresAt), SQLValue(apps), SQLValue(session.tokenBinding))
        }
    }

    func consoleSession(idDigest: String, now: Int64) async throws -> ConsoleSessionRecord? {
        try await statement { db in
            try await db.query(
                "SELECT \(Self.consoleSessionColumns) FROM console_sessions WHERE id_digest = $1 AND expires_at > $2",
                .text(idDigest), .integer(now)
            ).first.map { row in
                ConsoleSessionRecord(
                    idDigest: try row.string("id_digest"), role: try row.string("role"), csrfToken: try row.string("csrf_token"),
                    createdAt: try row.int64("created_at"), expiresAt: try row.int64("expires_at"),
                    apps: try Self.consoleSessionApps(try row.optionalString("apps")),
                    tokenBinding: try row.optionalString("token_binding"))
            }
        }
    }

    @discardableResult
    func deleteConsoleSession(idDigest: String) async throws -> Bool {
        try await statement { db in
            try await !db.query("DELETE FROM console_sessions WHERE id_digest = $1 RETURNING id_digest", .text(idDigest)).isEmpty
        }
    }

    /// A session's `apps` column: a JSON array of bundle ids, or NULL for every app. Text that is
    /// not an array of strings is an error (never read as "every app").
    static func consoleSessionApps(_ text: String?) throws -> [String]? {
        try text.map { try JSONDecoder().decode([String].self, from: Data($0.utf8)) }
    }
}
