import Foundation
import Testing
import VerdictTestSupport

@testable import VerdictStorage

/// Rows a database kept from before apps (schema 18) go to the app their notifications name, once:
/// never to another app that happens to migrate first.
@Suite("Storage: rows from before apps")
struct RowsFromBeforeAppsTests {
    @Test("rows go to the app their notifications name, whichever app migrates first", arguments: TestBackend.selected)
    func rowsGoToTheirOwnApp(_ backend: TestBackend) async throws {
        try await TestDatabase.with(backend) { database in
            let opened = try await database.open()
            let repository = try #require(opened as? SQLRepository)
            do {
                // The database as the release before apps left it, with one notification of com.old.
                try await repository.migrate(through: 18)
                try await repository.transaction { db in
                    try await db.execute("""
                        INSERT INTO notifications (notification_uuid, notification_type, environment, bundle_id,
                            original_transaction_id, signed_date, received_at, source, signed_payload, decoded_json)
                        VALUES ('0b0b0b0b-0000-4000-8000-000000000001', 'SUBSCRIBED', 'Sandbox', 'com.old',
                            '2000000000000001', 1, 1, 'delivery', 'x.y.z', '{}')
                        """)
                }
                let other = repository.scoped(to: "com.new")
                let old = repository.scoped(to: "com.old")
                // Another app migrating first leaves them (and the marker) alone.
                try await other.migrate()
                #expect(try await other.notification(uuid: "0b0b0b0b-0000-4000-8000-000000000001") == nil)
                #expect(try await old.notification(uuid: "0b0b0b0b-0000-4000-8000-000000000001") == nil)
                // Their own app takes them, once.
                try await old.migrate()
                #expect(try await old.notification(uuid: "0b0b0b0b-0000-4000-8000-000000000001") != nil)
                #expect(try await other.notification(uuid: "0b0b0b0b-0000-4000-8000-000000000001") == nil)
                let marker = try await repository.transaction { db in try await db.query("SELECT marker FROM rows_without_app").count }
                #expect(marker == 0)
            } catch {
                try? await repository.shutdown()
                throw error
            }
            try await repository.shutdown()
        }
    }
}
