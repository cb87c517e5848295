import AppStoreServer
import AppStoreSimulator
import Foundation
import NIOHTTP1
import Testing
import VerdictService
import VerdictStorage
import VerdictTestSupport

/// When the database is unreachable, intake answers 503 (so Apple retries) and stores nothing
/// half-written, and the API answers 503 with `Retry-After`; when it returns, the same notification is accepted and processed once.
@Suite(.serialized) struct DatabaseOutageTests {
    /// Runs `body` with a service on a fresh PostgreSQL database reached through a proxy the test
    /// can cut; skipped without a server (a failure in CI).
    static func withProxiedPostgres(
        _ settings: [String: String], _ body: (ServiceHarness, TCPProxy) async throws -> Void
    ) async throws {
        guard let server = TestBackend.postgresServerURL else {
            #expect(!TestBackend.isCI, "CI=true requires VERDICT_TEST_POSTGRES_URL")
            return
        }
        guard case .postgres(let parts) = try DatabaseURL(parsing: server) else { throw ServiceTestError("not postgres") }
        let proxy = try await TCPProxy(targetHost: parts.host, targetPort: parts.port)
        defer { Task { await proxy.stop() } }
        let name = "verdict_outage_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        var proxied = parts
        proxied.port = proxy.port
        let adminURL = DatabaseAdministration.urlString(proxied)
        let url = try await DatabaseAdministration.createDatabase(serverURL: adminURL, name: String(name), logger: TestDatabase.logger)
        defer { Task { try? await DatabaseAdministration.dropDatabase(serverURL: server, name: String(name), logger: TestDatabase.logger) } }
        try await ServiceHarness.with(.sqlite, extraSettings: settings.merging(["VERDICT_DATABASE_URL": url]) { $1 }) { harness in
            try await body(harness, proxy)
        }
    }

    @Test func postgresOutageAnswers503AndRecovers() async throws {
        try await Self.withProxiedPostgres([
            "VERDICT_DATABASE_TIMEOUT": "2",
            // A job whose completion could not be recorded during the outage runs again after its lease.
            "VERDICT_WORKER_LEASE": "5",
        ]) { harness, proxy in
            await harness.simulator.deliverer.setDeliveryURL(nil)
            let before = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            #expect(try await harness.deliver(before.notification.signedPayload).status == 200)

            await proxy.cut()
            let during = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            let refused = try await harness.deliver(during.notification.signedPayload)
            #expect(refused.status == 503)
            #expect(refused.body.jsonObject["error"]?.objectValue?["code"]?.stringValue == "UNAVAILABLE")
            #expect(!String(decoding: refused.body, as: UTF8.self).contains("postgres://"))
            #expect(try await Self.readiness(harness, becomes: 503).status == 503)
            // The app backends' endpoints answer 503 too (with Retry-After), never a 500.
            let signatureBody = Data(#"{"productId":"com.lumen.pro.monthly","offerId":"lumen-pro-first-month-099"}"#.utf8)
            for (method, path, body) in [
                (HTTPMethod.GET, "/v1/jobs?state=dead", nil), (.GET, "/v1/decisions?originalTransactionId=1", nil),
                (.POST, "/v1/offers/signatures", signatureBody),
            ] as [(HTTPMethod, String, Data?)] {
                let answer = try await harness.request(method, path, body: body)
                #expect(answer.status == 503, "\(path)")
                #expect(answer.body.jsonObject["error"]?.objectValue?["code"]?.stringValue == "UNAVAILABLE", "\(path)")
                #expect(!String(decoding: answer.body, as: UTF8.self).contains("127.0.0.1"), "\(path)")
            }

            proxy.restore()
            // Apple retries; once the database is back the retry is accepted.
            let deadline = ContinuousClock.now + .seconds(60)
            var status = 0
            while ContinuousClock.now < deadline {
                status = try await harness.deliver(during.notification.signedPayload).status
                if status == 200 { break }
                try await Task.sleep(for: .milliseconds(250))
            }
            #expect(status == 200)
            for uuid in [before.notification.notificationUUID, during.notification.notificationUUID] {
                let record = try await harness.waitUntilProcessed(uuid, timeout: .seconds(60))
                #expect(record["processedCount"]?.integerValue == 1)
            }
            #expect(try await harness.service.apps.first.repository.notificationCount() == 2)
        }
    }

    /// `/readyz` answers within a second whatever the database does: from what the service last
    /// checked in the background, never by waiting on a database that does not answer (with a
    /// 10 s database timeout, a probe that waited would take 10 s or more).
    @Test func readinessAnswersWithinASecondWithTheDatabaseStopped() async throws {
        try await Self.withProxiedPostgres(["VERDICT_DATABASE_TIMEOUT": "10"]) { harness, proxy in
            #expect(try await harness.request(.GET, "/readyz", token: nil).status == 200)
            await proxy.cut()
            let down = try await Self.readiness(harness, becomes: 503)
            #expect(down.status == 503)
            #expect(down.body.jsonObject[path: "database.ready"]?.boolValue == false)
            #expect(down.body.jsonObject[path: "rules.ready"]?.boolValue == true)
            #expect(try await harness.request(.GET, "/healthz", token: nil).status == 200, "liveness never asks the database")
            proxy.restore()
            #expect(try await Self.readiness(harness, becomes: 200).status == 200)
        }
    }

    /// Asks `/readyz` until it answers `status` (or 60 s pass); every answer must come within a second.
    static func readiness(_ harness: ServiceHarness, becomes status: Int) async throws -> (status: Int, body: Data) {
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            let started = ContinuousClock.now
            let answer = try await harness.request(.GET, "/readyz", token: nil)
            let took = ContinuousClock.now - started
            #expect(took < .seconds(1), "GET /readyz took \(took)")
            if answer.status == status || ContinuousClock.now > deadline { return answer }
            try await Task.sleep(for: .milliseconds(200))
        }
    }
}
