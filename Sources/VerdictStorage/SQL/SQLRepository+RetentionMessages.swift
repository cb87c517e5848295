extension SQLRepository {
    // MARK: Retention message review states (keyed by app and message identifier)

    static let retentionMessageColumns = "message_identifier, message_id, locale, state, checked_at, kind"

    func retentionMessageStates() async throws -> [RetentionMessageState] {
        try await statement { [appValue] db in
            try await db.query(
                "SELECT \(Self.retentionMessageColumns) FROM retention_messages WHERE app = $1 ORDER BY kind DESC, message_id, locale",
                appValue
            ).map { row in
                RetentionMessageState(
                    messageIdentifier: try row.string("message_identifier"), messageId: try row.string("message_id"),
                    locale: try row.string("locale"), state: try row.string("state"), checkedAt: try row.int64("checked_at"),
                    kind: RetentionMessageState.Kind(rawValue: try row.string("kind")) ?? .message)
            }
        }
    }

    func recordRetentionMessageStates(_ states: [RetentionMessageState]) async throws {
        guard !states.isEmpty else { return }
        try await transaction { [appValue] db in
            for state in states {
                try await db.execute("""
                    INSERT INTO retention_messages (app, \(Self.retentionMessageColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7)
                    ON CONFLICT (app, message_identifier) DO UPDATE SET
                        message_id = excluded.message_id, locale = excluded.locale, state = excluded.state,
                        checked_at = excluded.checked_at, kind = excluded.kind
                    """, appValue, .text(state.messageIdentifier.lowercased()), .text(state.messageId), .text(state.locale),
                    .text(state.state), .integer(state.checkedAt), .text(state.kind.rawValue))
            }
        }
    }

    func deleteRetentionMessageStates(messageIdentifiers: [String]) async throws {
        guard !messageIdentifiers.isEmpty else { return }
        try await transaction { [appValue] db in
            for identifier in messageIdentifiers {
                try await db.execute(
                    "DELETE FROM retention_messages WHERE app = $1 AND message_identifier = $2",
                    appValue, .text(identifier.lowercased()))
            }
        }
    }
}
