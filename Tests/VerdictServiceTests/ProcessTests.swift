import AppStoreServer
import AppStoreSimulator
import Foundation
import Synchronization
import Testing
import VerdictService
import VerdictStorage
import VerdictTestSupport

/// `verdict serve` as real child processes on the harness's database: a SIGKILL loses nothing
/// that was acknowledged and processes nothing twice, two processes share one PostgreSQL queue,
/// SIGTERM drains and gives back leases, logs are JSON without secrets, and bad settings fail fast
/// without echoing passwords. The harness runs no in-process service here (`startService: false`):
/// only the children work.
@Suite struct ProcessTests {
    /// A signed notification minted by the simulator (not delivered).
    struct Minted: Sendable {
        var uuid: String
        var signedPayload: String
    }

    /// `count` SUBSCRIBED notifications for `count` new customers.
    static func mint(_ harness: ServiceHarness, _ count: Int) async throws -> [Minted] {
        var minted: [Minted] = []
        for _ in 0..<count {
            let result = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            minted.append(Minted(uuid: result.notification.notificationUUID, signedPayload: result.notification.signedPayload))
        }
        #expect(Set(minted.map(\.uuid)).count == count)
        return minted
    }

    /// How each POST ended: the `status` field of a 200 answer, or nil (error status or no answer).
    final class Deliveries: Sendable {
        private let state = Mutex<(answers: [String: String?], next: Int)>(([:], 0))

        func take(_ total: Int) -> Int? {
            state.withLock { state in
                guard state.next < total else { return nil }
                defer { state.next += 1 }
                return state.next
            }
        }
        func record(_ uuid: String, _ answer: String?) { state.withLock { $0.answers[uuid] = answer } }
        var answered: Int { state.withLock { $0.answers.count } }
        var answers: [String: String?] { state.withLock { $0.answers } }
        var acknowledged: Set<String> { Set(answers.compactMap { $0.value == nil ? nil : $0.key }) }
    }

    final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }

    /// POSTs `items` with `concurrency` requests in flight; `target` picks the child for item `i`.
    /// Workers stop taking items once `stop` returns true.
    @discardableResult
    static func post(
        _ items: [Minted], concurrency: Int = 8, to target: @escaping @Sendable (Int) -> ServiceProcess,
        into deliveries: Deliveries = Deliveries(), timeout: Duration = .seconds(30),
        stop: @escaping @Sendable () -> Bool = { false }
    ) async -> Deliveries {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    while !stop(), let index = deliveries.take(items.count) {
                        let item = items[index]
                        let answer = try? await target(index).deliver(item.signedPayload, timeout: timeout)
                        let status = answer.flatMap { $0.status == 200 ? $0.body.jsonObject["status"]?.stringValue ?? "?" : nil }
                        deliveries.record(item.uuid, status)
                    }
                }
            }
        }
        return deliveries
    }

    /// Asserts every notification in `uuids` was processed exactly once.
    static func expectProcessedOnce(_ views: [String: [String: JSONValue]], _ uuids: some Collection<String>, attemptsOne: Bool = false) {
        var wrong: [String] = []
        for uuid in uuids {
            let view = views[uuid]
            if view?["state"]?.stringValue != "processed" || view?["processedCount"]?.integerValue != 1
                || (attemptsOne && view?["attempts"]?.integerValue != 1) {
                wrong.append("\(uuid): state \(view?["state"]?.stringValue ?? "missing") processedCount \(view?["processedCount"]?.integerValue ?? -1) attempts \(view?["attempts"]?.integerValue ?? -1)")
            }
        }
        #expect(wrong.isEmpty, "not processed exactly once: \(wrong.prefix(5))")
    }

    /// Makes the leases of a killed worker expire now instead of after `VERDICT_WORKER_LEASE`:
    /// claims every runnable job as if more than the longest lease allowed (600 s) had passed,
    /// then gives the leases back.
    /// With VERDICT_TEST_REAL_LEASE_EXPIRY=1 nothing is done and the test waits for real expiry.
    static func expireLeases(_ repository: any VerdictRepository) async throws -> Int {
        if ProcessInfo.processInfo.environment["VERDICT_TEST_REAL_LEASE_EXPIRY"] == "1" { return 0 }
        let now = Date().appStoreMilliseconds
        let owner = "process-tests/lease-expiry"
        let claimed = try await repository.claimJobs(owner: owner, limit: 100_000, leaseMilliseconds: 1_000, now: now + 601_000, kinds: nil)
        try await repository.releaseLeases(owner: owner, now: now)
        return claimed.count
    }

    static var settleTimeout: Duration {
        // Real expiry waits out the harness's lease (VERDICT_WORKER_LEASE 120 s) and then some.
        ProcessInfo.processInfo.environment["VERDICT_TEST_REAL_LEASE_EXPIRY"] == "1" ? .seconds(180) : .seconds(30)
    }

    // MARK: 1. Crash safety

    @Test(arguments: TestBackend.selected)
    func sigkillLosesNothingAcknowledgedAndProcessesEachOnce(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, startService: false) { harness in
            try await ServiceProcess.group { children in
                let repository = harness.service.apps.first.repository
                let minted = try await Self.mint(harness, 300)
                let directory = harness.database.directory
                let first = try await children.start(harness.environment, directory: directory, name: "crash")

                // Phase 1: 8 POSTs in flight; once a third are acknowledged, SIGKILL the child
                // mid-flight (short timeouts: a request that starts just after the kill meets a
                // refused port; on a loaded machine some time out before it, so count 200s only).
                let killed = Flag()
                let deliveries = Deliveries()
                async let phase1 = Self.post(minted, to: { _ in first }, into: deliveries, timeout: .seconds(3), stop: { killed.isSet })
                let killer = Task {
                    while deliveries.acknowledged.count < minted.count / 3, deliveries.answered < minted.count {
                        try await Task.sleep(for: .milliseconds(2))
                    }
                    killed.set()  // no new requests: the ones in flight are the ones the kill cuts
                    try await first.kill()
                }
                let before = await phase1
                try await killer.value
                #expect(first.wasSignalled, "the first child must have died of SIGKILL")
                let acknowledged = before.acknowledged
                let failed = Set(before.answers.keys).subtracting(acknowledged)
                #expect(acknowledged.count >= minted.count / 4 && acknowledged.count < minted.count,
                        "\(acknowledged.count) of \(minted.count) acknowledged before the kill")

                // Nothing acknowledged may be missing from the database the dead child wrote.
                var missing: [String] = []
                for uuid in acknowledged where try await repository.notification(uuid: uuid) == nil { missing.append(uuid) }
                #expect(missing.isEmpty, "acknowledged (200) but not stored: \(missing.prefix(5))")

                // Jobs the dead child held stay leased; make their leases expire (see expireLeases).
                let stuck = try await repository.jobs(state: .running, limit: 10_000)
                #expect(stuck.allSatisfy { $0.leaseOwner?.contains("/\(first.pid)/") == true }, "only the killed child held leases")
                let reclaimed = try await Self.expireLeases(repository)
                #expect(reclaimed >= stuck.count || reclaimed == 0)

                // Phase 2: a new child on the same database; everything not acknowledged is (re)sent.
                let second = try await children.start(harness.environment, directory: directory, name: "crash")
                let resend = minted.filter { !acknowledged.contains($0.uuid) }
                let after = await Self.post(resend, to: { _ in second })
                #expect(after.answers.count == resend.count)
                #expect(after.answers.values.allSatisfy { $0 == "accepted" || $0 == "duplicate" }, "every re-sent notification is acknowledged")
                let duplicates = after.answers.filter { failed.contains($0.key) && $0.value == "duplicate" }.count
                let stored = try await repository.notificationCount()
                #expect(stored == minted.count, "stored \(stored) of \(minted.count) distinct notifications (\(duplicates) were stored before the kill without an answer)")

                let views = try await second.waitUntilSettled(minted.map(\.uuid), timeout: Self.settleTimeout)
                Self.expectProcessedOnce(views, minted.map(\.uuid))
                try await second.terminate()
            }
        }
    }

    // MARK: 2. Two processes, one PostgreSQL database

    @Test(.enabled(if: TestBackend.selected.contains(.postgres)))
    func twoProcessesOnOnePostgreSQLProcessEachNotificationOnce() async throws {
        try await ServiceHarness.with(.postgres, startService: false) { harness in
            try await ServiceProcess.group { children in
                let minted = try await Self.mint(harness, 200)
                let directory = harness.database.directory
                let a = try await children.start(harness.environment, directory: directory, name: "pair-a")
                let b = try await children.start(harness.environment, directory: directory, name: "pair-b")
                let deliveries = await Self.post(minted, to: { $0 % 2 == 0 ? a : b })
                #expect(deliveries.answers.count == minted.count)
                #expect(deliveries.answers.values.allSatisfy { $0 == "accepted" }, "every notification is new")
                let views = try await a.waitUntilSettled(minted.map(\.uuid))
                Self.expectProcessedOnce(views, minted.map(\.uuid), attemptsOne: true)
                #expect(try await harness.service.apps.first.repository.notificationCount() == minted.count)

                // Each process counts the notification jobs it completed: together exactly one per notification.
                let doneA = try await Self.completedNotificationJobs(a)
                let doneB = try await Self.completedNotificationJobs(b)
                #expect(doneA + doneB == minted.count, "done by a: \(doneA), by b: \(doneB)")
                #expect(doneA > 0 && doneB > 0, "both processes worked (a: \(doneA), b: \(doneB))")
                #expect(try await Self.metric(a, "verdict_job_attempts_total", ["outcome=\"lease_lost\""]) == 0)
                #expect(try await Self.metric(b, "verdict_job_attempts_total", ["outcome=\"lease_lost\""]) == 0)
                try await a.terminate()
                try await b.terminate()
            }
        }
    }

    /// The sum of the `/metrics` samples of `name` whose labels contain every one of `labels`.
    static func metric(_ child: ServiceProcess, _ name: String, _ labels: [String]) async throws -> Int {
        let (status, body) = try await child.request(.GET, "/metrics")
        guard status == 200 else { throw ServiceTestError("/metrics answered \(status)") }
        var total = 0.0
        for line in String(decoding: body, as: UTF8.self).split(separator: "\n") where line.hasPrefix(name + "{") {
            guard labels.allSatisfy({ line.contains($0) }), let value = line.split(separator: " ").last.flatMap({ Double($0) }) else { continue }
            total += value
        }
        return Int(total)
    }

    static func completedNotificationJobs(_ child: ServiceProcess) async throws -> Int {
        try await metric(child, "verdict_job_attempts_total", ["kind=\"\(NotificationIntake.processingJobKind)\"", "outcome=\"done\""])
    }

    // MARK: 3. Graceful shutdown

    @Test(arguments: TestBackend.selected)
    func sigtermExitsCleanlyAndLeavesNoJobLeased(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, startService: false) { harness in
            try await ServiceProcess.group { children in
                let repository = harness.service.apps.first.repository
                let minted = try await Self.mint(harness, 100)
                let directory = harness.database.directory
                // One job at a time, so that work is still queued (and one job running) at SIGTERM.
                var settings = harness.environment
                settings["VERDICT_WORKER_CONCURRENCY"] = "1"
                let first = try await children.start(settings, directory: directory, name: "graceful")
                let deliveries = await Self.post(minted, to: { _ in first })
                #expect(deliveries.answers.values.allSatisfy { $0 == "accepted" })

                let status = try await first.terminate(timeout: .seconds(15))
                #expect(!first.wasSignalled && status == 0, "verdict serve must exit 0 on SIGTERM (status \(status))")
                let leased = try await repository.jobs(state: .running, limit: 1_000)
                #expect(leased.isEmpty, "graceful shutdown gives back every lease; still leased: \(leased.map(\.id))")
                var unprocessed = 0
                for item in minted where try await repository.notification(uuid: item.uuid)?.state != .processed { unprocessed += 1 }

                // A new child finishes the rest promptly: well before a 60 s lease could expire.
                try #require(unprocessed > 0, "SIGTERM must find work still queued for the test to mean anything")
                let second = try await children.start(harness.environment, directory: directory, name: "graceful")
                let started = ContinuousClock.now
                let views = try await second.waitUntilSettled(minted.map(\.uuid), timeout: .seconds(30))
                Self.expectProcessedOnce(views, minted.map(\.uuid))
                #expect(ContinuousClock.now - started < .seconds(45), "\(unprocessed) left at SIGTERM took \(ContinuousClock.now - started)")
                #expect(try await repository.notificationCount() == minted.count)
                try await second.terminate()
            }
        }
    }

    // MARK: 4. Logs

    @Test(arguments: TestBackend.selected)
    func logsAreJSONLinesWithoutSecrets(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, startService: false) { harness in
            try await ServiceProcess.group { children in
                let minted = try await Self.mint(harness, 10)
                var settings = harness.environment
                settings["VERDICT_LOG_LEVEL"] = "trace"
                // A database password must not be logged either (the test server trusts local
                // connections, so a password in the URL is accepted and never checked).
                var databasePassword: String?
                if backend == .postgres, var url = URLComponents(string: harness.database.url) {
                    if url.password == nil { url.password = "db-secret-pw-4711" }
                    databasePassword = url.password
                    settings["VERDICT_DATABASE_URL"] = url.string
                }
                let child = try await children.start(settings, directory: harness.database.directory, name: "logs")
                await Self.post(minted, to: { _ in child })
                _ = try await child.waitUntilSettled(minted.map(\.uuid))
                // Refusals and lookups log too: a tampered payload, a wrong token, authenticated reads.
                let parts = minted[0].signedPayload.split(separator: ".").map(String.init)
                let tampered = parts[0] + "." + String(parts[1].reversed()) + "." + parts[2]
                #expect(try await child.deliver(tampered).status == 422)
                let wrongToken = "wrong-token-0123456789-secret"
                #expect(try await child.request(.GET, "/v1/notifications/\(minted[0].uuid)", token: wrongToken).status == 401)
                // The served process records through the process's swift-metrics system: the
                // catalog's families keep their help text.
                let (metricsStatus, metricsBody) = try await child.request(.GET, "/metrics")
                #expect(metricsStatus == 200)
                let exposition = PrometheusExposition(String(decoding: metricsBody, as: UTF8.self))
                #expect(exposition.help["verdict_notifications_total"] == ServiceMetric.notifications.help)
                #expect(exposition.types["verdict_notification_intake_seconds"] == "histogram")
                #expect(try await child.request(.GET, "/v1/notifications/\(minted[1].uuid)").status == 200)
                try await child.terminate()

                let lines = child.logLines
                #expect(lines.count >= minted.count, "trace logging writes at least a line per request (\(lines.count))")
                let notJSON = lines.filter { JSONValue.parse(Data($0.utf8))?.objectValue == nil }
                #expect(notJSON.isEmpty, "not JSON objects: \(notJSON.prefix(3))")
                #expect((try? String(contentsOf: child.outputFile, encoding: .utf8))?.isEmpty == true, "nothing on standard output")

                let keyPEM = try String(contentsOf: harness.database.directory.appendingPathComponent("key.p8"), encoding: .utf8)
                let keyBody = keyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
                var secrets: [(String, String)] = [("API token", ServiceHarness.token), ("wrong token", wrongToken),
                                                   ("private key", keyBody.joined())]
                secrets += keyBody.filter { $0.count >= 16 }.map { ("private key line", $0) }
                for item in minted {
                    secrets.append(("signed payload", item.signedPayload))
                    secrets.append(("payload segment", String(item.signedPayload.split(separator: ".")[1])))
                    secrets.append(("signature segment", String(item.signedPayload.split(separator: ".")[2])))
                }
                secrets.append(("tampered payload", tampered))
                if let databasePassword { secrets.append(("database password", databasePassword)) }
                for (what, secret) in secrets {
                    let leaking = lines.filter { $0.contains(secret) }
                    #expect(leaking.isEmpty, "the log holds the \(what): \(leaking.first?.prefix(300) ?? "")")
                }
            }
        }
    }

    // MARK: 5. Startup errors

    @Test func startupErrorsExitNonZeroWithOneLineAndNoPassword() async throws {
        try await ServiceHarness.with(.sqlite, startService: false) { harness in
            let directory = harness.database.directory
            var settings = harness.environment
            settings["VERDICT_PORT"] = "\(try ServiceProcess.freePort())"
            settings["VERDICT_LOG_LEVEL"] = "info"

            var noBundle = settings
            noBundle["VERDICT_BUNDLE_ID"] = nil
            let missing = try await ServiceProcess.run(["serve"], settings: noBundle, directory: directory, name: "no-bundle")
            Self.expectConfigurationError(missing, naming: .bundleId)

            // A malformed PostgreSQL URL is a configuration error too (parsed once, strictly, at start).
            var malformed = settings
            malformed["VERDICT_DATABASE_URL"] = "postgres://user:secretpw@host:notaport/db"
            let refused = try await ServiceProcess.run(["serve"], settings: malformed, directory: directory, name: "malformed-db")
            Self.expectConfigurationError(refused, naming: .databaseURL)
            #expect(!refused.output.contains("secretpw"), "the password leaked: \(refused.output)")
            // An unreachable PostgreSQL server does not stop serve (it waits, not ready): DatabaseStartupTests.
        }
    }

    /// Exit status 78 (`EX_CONFIG`) and exactly one line, `verdict: configuration error: <VARIABLE> (<flag>) <why>`.
    static func expectConfigurationError(_ run: (status: Int32, output: String), naming key: ConfigurationKey) {
        #expect(run.status == ConfigurationError.exitStatus, "exit status \(run.status): \(run.output)")
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "one line: \(run.output)")
        #expect(lines.first?.hasPrefix("verdict: configuration error: \(key.environmentVariable) (\(key.flag)) ") == true,
                "names the setting: \(run.output)")
    }

    @Test func serveHasAFlagForEverySetting() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-help-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let help = try await ServiceProcess.run(["serve", "--help"], settings: [:], directory: directory, name: "help")
        #expect(help.status == 0, "\(help.output)")
        for key in ConfigurationKey.all + [.configFile] {
            #expect(help.output.contains(key.flag + " "), "verdict serve --help lacks \(key.flag)")
        }
    }
}
