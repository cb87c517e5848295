import AppStoreServer
import Foundation
import Logging
import Testing
import VerdictStorage
import VerdictTestSupport

@testable import VerdictService

/// `verdict serve` started while its PostgreSQL server is away (an orchestrator restarting both
/// at once): it listens anyway — `/healthz` 200, `/readyz` and the intake 503 — and migrates and
/// becomes ready once the server answers, without a restart and without printing the password.
@Suite(.serialized) struct DatabaseStartupTests {
    static let password = "db-secret-pw-4711"

    /// The test server's URL with another database name and a password (the server trusts local
    /// connections, so the password is accepted and never checked).
    static func url(_ server: String, database: String, port: Int? = nil) throws -> String {
        var url = try #require(URLComponents(string: server))
        url.path = "/" + database
        url.password = password
        if let port { url.port = port }
        return try #require(url.string)
    }

    @Test func aDatabaseThatAppearsLaterIsMigratedAndTheServiceBecomesReady() async throws {
        guard let server = TestBackend.postgresServerURL else {
            if TestBackend.isCI { Issue.record("CI=true requires VERDICT_TEST_POSTGRES_URL") }
            return
        }
        let logger = Logger(label: "verdict.tests.startup")
        let name = "verdict_later_\(UUID().uuidString.prefix(8).lowercased())"
        try await ServiceHarness.with(.sqlite, startService: false) { harness in
            var settings = harness.environment
            settings["VERDICT_DATABASE_URL"] = try Self.url(server, database: name)
            settings["VERDICT_LOG_LEVEL"] = "info"
            // The service's default: a call to an absent database gives up within it.
            settings["VERDICT_DATABASE_TIMEOUT"] = "5"
            try await ServiceProcess.group { children in
                // The database does not exist yet (SQLSTATE 3D000): serve starts all the same.
                let child = try await children.start(settings, directory: harness.database.directory, name: "db-later")
                #expect(try await child.request(.GET, "/readyz", token: nil).status == 503)
                let minted = try await ProcessTests.mint(harness, 1)
                #expect(try await child.deliver(minted[0].signedPayload).status == 503, "not stored: Apple retries")

                _ = try await DatabaseAdministration.createDatabase(serverURL: server, name: name, logger: logger)
                let deadline = ContinuousClock.now + .seconds(60)
                while try await child.request(.GET, "/readyz", token: nil).status != 200, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(200))
                }
                #expect(try await child.request(.GET, "/readyz", token: nil).status == 200)
                // Apple's retry lands, and the job worker (started once migrated) processes it.
                #expect(try await child.deliver(minted[0].signedPayload).status == 200)
                _ = try await child.waitUntilSettled([minted[0].uuid])
                #expect(try await child.terminate() == 0)
                #expect(child.logText.contains("the database is unavailable at start"))
                #expect(child.logText.contains("the database answers: schema at version"))
                #expect(!child.logText.contains(Self.password), "the password leaked")
            }
        }
        try? await DatabaseAdministration.dropDatabase(serverURL: server, name: name, logger: logger)
    }

    @Test func anUnreachableServerLeavesServeRunningAndNotReady() async throws {
        try await ServiceHarness.with(.sqlite, startService: false) { harness in
            var settings = harness.environment
            // Port 1: nothing listens.
            settings["VERDICT_DATABASE_URL"] = "postgres://u:\(Self.password)@127.0.0.1:1/db"
            settings["VERDICT_LOG_LEVEL"] = "info"
            // The service's default: a call to an absent database gives up within it.
            settings["VERDICT_DATABASE_TIMEOUT"] = "5"
            try await ServiceProcess.group { children in
                let child = try await children.start(settings, directory: harness.database.directory, name: "db-unreachable")
                #expect(try await child.request(.GET, "/healthz", token: nil).status == 200)
                let ready = try await child.request(.GET, "/readyz", token: nil)
                #expect(ready.status == 503)
                #expect(!String(decoding: ready.body, as: UTF8.self).contains(Self.password))
                #expect(try await child.terminate() == 0, "stops cleanly while waiting for its database")
                #expect(child.logText.contains("the database is unavailable at start"))
                #expect(!child.logText.contains(Self.password), "the password leaked")
            }
        }
    }
}
