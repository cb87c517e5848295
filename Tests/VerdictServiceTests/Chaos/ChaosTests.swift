import AppStoreServer
import AppStoreSimulator
import Foundation
import Synchronization
import Testing
import VerdictService
import VerdictStorage
import VerdictTestSupport

/// The chaos run: two `verdict serve` processes on one PostgreSQL behind a round-robin balancer
/// without health checks; the simulated App Store publishes customers' notifications (offer
/// triggers, consumption requests, refunds) and retries every one not acknowledged on Apple's
/// schedule (compressed: an hour lasts 0.2 s); one process is SIGKILLed every few seconds and
/// started again, and PostgreSQL itself is stopped the hard way and restarted twice. Afterwards,
/// exactly: every acknowledged notification stored once and processed once, one decision per
/// triggering notification, caps never exceeded, one webhook event id per decision, Apple's
/// consumption bodies one per request (a repeat only after an attempt recorded as of unknown
/// outcome), no dead jobs.
///
/// Runs where `VERDICT_CHAOS_POSTGRES_URL` and `VERDICT_CHAOS_POSTGRES_RESTART` are set (`.ci/run`
/// after the other tests, `Scripts/chaos.sh` for longer runs); the figures are printed.
@Suite(.serialized, .enabled(if: ChaosSettings.current != nil)) struct ChaosTests {
    static let cappedOffer = "lumen-annual-40off"
    static let cap = 25

    @Test(.timeLimit(.minutes(30)))
    func killsAndDatabaseRestartsLoseNothingAndRepeatNothing() async throws {
        let chaos = try #require(ChaosSettings.current)
        let name = "verdict_chaos_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        let url = try await DatabaseAdministration.createDatabase(serverURL: chaos.serverURL, name: String(name), logger: TestDatabase.logger)
        defer { Task { try? await DatabaseAdministration.dropDatabase(serverURL: chaos.serverURL, name: String(name), logger: TestDatabase.logger) } }
        try await WebhookReceiver.with(failFirst: 0) { receiver, hooks in
            let settings = ["VERDICT_DATABASE_URL": url, "VERDICT_WEBHOOK_URL": hooks.absoluteString, "VERDICT_WEBHOOK_SECRET": "chaos-secret",
                            "VERDICT_ASSUME_CONSENT": "true", "VERDICT_WORKER_LEASE": "5", "VERDICT_DATABASE_TIMEOUT": "10",
                            "VERDICT_LOG_LEVEL": "notice"]
            try await ServiceHarness.with(.sqlite, extraSettings: settings, startService: false) { harness in
                try await Self.run(chaos, harness, receiver)
            }
        }
    }

    static func run(_ chaos: ChaosSettings, _ harness: ServiceHarness, _ receiver: WebhookReceiver) async throws {
        let started = ContinuousClock.now
        let directory = harness.database.directory
        var environment = harness.environment
        environment["VERDICT_RULES_DIR"] = try OfferCapRaceTests.cappedRules(in: directory, max: cap)
        let settings = environment
        harness.store.clock.unfreeze()
        try await ServiceProcess.group { children in
            let processes = Fleet([
                try await children.start(settings, directory: directory, name: "chaos-a"),
                try await children.start(settings, directory: directory, name: "chaos-b"),
            ])
            let balancer = try await TCPProxy(targetHost: "127.0.0.1", targetPorts: processes.ports)
            defer { Task { await balancer.stop() } }
            await harness.simulator.deliverer.setRetryPolicy(DeliveryRetryPolicy(mode: .always, timeScale: 18_000, requestTimeout: 10))
            await harness.simulator.deliverer.setDeliveryURL(URL(string: "http://127.0.0.1:\(balancer.port)/v1/notifications"))

            let load = ChaosLoad()
            let stop = ProcessTests.Flag()
            let killer = Task {
                var kills = 0
                var victim = 0
                while !stop.isSet {
                    try await Task.sleep(for: chaos.killInterval)
                    if stop.isSet { break }
                    try await processes[victim].kill()
                    kills += 1
                    let replacement = try await children.start(settings, directory: directory, name: victim == 0 ? "chaos-a" : "chaos-b")
                    processes[victim] = replacement
                    balancer.setTargetPorts(processes.ports)
                    victim = 1 - victim
                }
                return kills
            }
            let restarter = Task {
                var restarts = 0
                for third in [1, 2] {
                    while load.count < chaos.notifications * third / 3 { try await Task.sleep(for: .milliseconds(100)) }
                    try await Self.restartDatabase(chaos.restartCommand, downSeconds: 2)
                    restarts += 1
                }
                return restarts
            }
            let reporter = Task {
                var last = -1
                while !stop.isSet {
                    try await Task.sleep(for: .seconds(10))
                    let count = load.count
                    print("chaos: \(count) notifications published\(count == last ? " (none in 10 s: \(load.lanes))" : "")")
                    fflush(nil)  // shown as it goes, also when the output is a file
                    last = count
                }
            }
            defer { reporter.cancel() }
            do {
                try await load.run(harness.store, total: chaos.notifications, rate: chaos.rate)
            } catch {
                stop.set()
                killer.cancel()
                restarter.cancel()
                throw error
            }
            let restarts = try await restarter.value
            stop.set()
            let kills = try await killer.value
            let published = Date()
            // Apple's last retries (about 31 s after a first attempt), then the queue runs dry.
            await harness.simulator.deliverer.waitUntilIdle()
            let repository = harness.service.apps.first.repository
            try await Self.waitUntilQueueIsEmpty(repository, timeout: .seconds(300))

            let report = try await ChaosReport.make(load: load, harness: harness, receiver: receiver, cappedOffer: cappedOffer)
            report.expectExact(cap: cap)
            let seconds = Int(Date().timeIntervalSince(published))
            print("chaos: \(report.summary); \(kills) SIGKILLs and \(restarts) PostgreSQL restarts while publishing; "
                  + "the queue ran dry \(seconds) s after the last notification; \((ContinuousClock.now - started).components.seconds) s in all")
            for child in processes.all { try await child.terminate() }
        }
    }

    /// Runs the restart executable (`downSeconds` between the hard stop and the start).
    static func restartDatabase(_ command: String, downSeconds: Int) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = ["\(downSeconds)"]
        try process.run()
        // Reaped here: Foundation leaves this child (which ends as `runuser`) a zombie, never
        // calling its termination handler nor clearing `isRunning`.
        let deadline = ContinuousClock.now + .seconds(90)
        var status: Int32 = 0
        while true {
            let reaped = waitpid(process.processIdentifier, &status, WNOHANG)
            if reaped == process.processIdentifier { break }
            if reaped == -1 { status = process.terminationStatus << 8; break }  // Foundation reaped it after all
            guard ContinuousClock.now < deadline else { throw ServiceTestError("\(command) did not finish in 90 s") }
            try await Task.sleep(for: .milliseconds(50))
        }
        // A normal exit with status 0 (wait(2)'s encoding: the exit status in the second byte).
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else { throw ServiceTestError("\(command) ended with wait status \(status)") }
    }

    /// Polls until no job is queued or running.
    static func waitUntilQueueIsEmpty(_ repository: any VerdictRepository, timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            let statistics = try? await repository.queueStatistics(now: Date().appStoreMilliseconds)
            if let statistics, statistics.queued == 0, statistics.kinds.allSatisfy({ $0.running == 0 }) { return }
            guard ContinuousClock.now < deadline else {
                throw ServiceTestError("jobs still queued or running after \(timeout): \(statistics.map { "\($0.kinds)" } ?? "unknown")")
            }
            try await Task.sleep(for: .milliseconds(500))
        }
    }

    /// The two processes behind the balancer (one replaced after each kill).
    final class Fleet: Sendable {
        private let processes: Mutex<[ServiceProcess]>
        init(_ processes: [ServiceProcess]) { self.processes = Mutex(processes) }
        subscript(index: Int) -> ServiceProcess {
            get { processes.withLock { $0[index] } }
            set { processes.withLock { $0[index] = newValue } }
        }
        var all: [ServiceProcess] { processes.withLock { $0 } }
        var ports: [Int] { all.map(\.port) }
    }
}
