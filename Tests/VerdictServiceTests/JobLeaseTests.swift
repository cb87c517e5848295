import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Testing
import VerdictStorage

@testable import VerdictService

/// A running job's lease is renewed by its worker (a heartbeat): a job that runs for many leases
/// is never handed to another worker while its own worker lives, and runs once.
@Suite struct JobLeaseTests {
    /// Sleeps for `duration`, counting its runs.
    final class SlowHandler: JobHandler {
        let kind = "slow"
        let duration: Duration
        let runs = Mutex(0)

        init(duration: Duration) {
            self.duration = duration
        }

        func run(_ job: JobRecord, logger: Logger) async throws -> String? {
            runs.withLock { $0 += 1 }
            try await Task.sleep(for: duration)
            return #"{"slept":true}"#
        }
    }

    @Test func aJobRunningForManyLeasesKeepsItsLeaseAndRunsOnce() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-lease-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let logger = Logger(label: "verdict.tests.lease")
        let repository = try await RepositoryFactory.open(
            databaseURL: try DatabaseURL(parsing: "sqlite:" + directory.appendingPathComponent("jobs.sqlite").path), logger: logger)
        try await repository.migrate()
        let id = try await repository.enqueue(NewJob(kind: "slow", payload: "{}", runAt: 0, createdAt: 0)).id

        // Leases of 6 s (renewed every 2 s), a job of 13 s: more than two leases long, with room
        // for a renewal delayed by 4 s on a busy machine (the whole suite runs beside this test).
        let handler = SlowHandler(duration: .seconds(13))
        let worker = JobWorker(
            repository: repository, handlers: [handler], metrics: ServiceMetrics(), signal: JobSignal(),
            concurrency: 1, leaseMilliseconds: 6_000, pollInterval: .milliseconds(50), logger: logger)
        let running = Task { try await worker.run() }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while clock.now < deadline, try await repository.job(id: id)?.state == .queued {
            try await Task.sleep(for: .milliseconds(10))
        }
        // Once the worker holds it, another worker looks for expired leases all along; it never gets the job.
        var stolen = 0
        while clock.now < deadline, try await repository.job(id: id)?.state != .done {
            let got = try await repository.claimJobs(
                owner: "thief", limit: 10, leaseMilliseconds: 6_000, now: Date().appStoreMilliseconds, kinds: nil,
                includeExpiredLeases: true)
            stolen += got.count
            try await Task.sleep(for: .milliseconds(200))
        }
        running.cancel()
        _ = try? await running.value
        #expect(stolen == 0, "the lease ran out while the job ran")
        #expect(try await repository.job(id: id)?.state == .done)
        #expect(handler.runs.withLock { $0 } == 1)
        try await repository.shutdown()
    }
}
