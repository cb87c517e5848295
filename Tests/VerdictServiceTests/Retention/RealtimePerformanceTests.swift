import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictService
import VerdictTestSupport
@testable import VerdictStorage

/// Apple's performance test run by the simulator against the live service: every signed realtime
/// request answered 200 with a valid body within the threshold — and, with the service slowed by
/// a stalled database, passed or failed depending on Verdict's deadline.
@Suite struct RealtimePerformanceTests {
    @Test(arguments: TestBackend.selected)
    func theServicePassesThePerformanceTest(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: RetentionRealtimeTests.settings) { harness in
            let client = try harness.service.apps.first.appStore.client(for: .sandbox)
            _ = try await RetentionMessageSync(
                client: client, repository: harness.service.apps.first.repository, messages: RetentionRealtimeTests.bundle.messages,
                imagesDirectory: ServiceHarness.rulesDirectory
            ).run(upload: true)
            let (_, otid) = try await harness.subscribeFullPriceAnnual()
            let notOriginal = await #expect(throws: AppStoreAPIFailure.self) {
                try await client.initiatePerformanceTest(originalTransactionId: "2999999999999999")
            }
            #expect(notOriginal?.rawErrorCode == SimulatorAPIErrorCode.transactionIdNotOriginal)
            let noURL = await #expect(throws: AppStoreAPIFailure.self) { try await client.initiatePerformanceTest(originalTransactionId: otid) }
            #expect(noURL?.rawErrorCode == 4_040_021)

            try await client.setRealtimeURL(harness.baseURL + "/v1/retention/realtime")
            // The whole suite runs beside this test: Apple's 700 ms would measure the machine's load,
            // not the service (latency is measured by benchmarks, not in tests).
            await harness.store.setPerformanceTestConfig(PerformanceTestConfig(
                maxConcurrentRequests: 2, totalRequests: 20, totalDuration: 60_000, responseTimeThreshold: 20_000, successRateThreshold: 90))
            let started = try await client.initiatePerformanceTest(originalTransactionId: otid)
            let id = try #require(started.requestId)
            #expect(started.config?.responseTimeThreshold == 20_000)
            let again = await #expect(throws: AppStoreAPIFailure.self) { try await client.initiatePerformanceTest(originalTransactionId: otid) }
            #expect(again?.rawErrorCode == SimulatorAPIErrorCode.performanceTestRunning)

            let deadline = ContinuousClock.now + .seconds(60)
            var result = try await client.getPerformanceTestResult(requestId: id)
            while result.result == .pending, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
                result = try await client.getPerformanceTestResult(requestId: id)
            }
            #expect(result.numPending == 0)
            #expect(result.failures == [:], "\(result.failures ?? [:])")
            #expect(result.successRate == 100)
            #expect(result.result == .pass)
            #expect(result.responseTimes?.p99 != nil)
            #expect(result.target == harness.baseURL + "/v1/retention/realtime")
            // Every request was a new requestIdentifier: one decision each, except those that missed
            // Verdict's own deadline on a loaded machine (answered {} in time, and not stored).
            let (_, list) = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)&limit=200")
            let stored = list.jsonObject["decisions"]?.arrayValue?.count ?? 0
            let missed = try await RetentionRealtimeTests.deadlineFallbacks(harness)
            #expect(stored + missed >= 20 && stored <= 20, "\(stored) stored, \(missed) past the deadline")
        }
    }

    @Test func theSettingsPageScenarioCallsTheRealtimeURL() async throws {
        try await ServiceHarness.with(.sqlite, extraSettings: RetentionRealtimeTests.settings) { harness in
            let (_, otid) = try await harness.subscribeFullPriceAnnual()
            let scenario = harness.simulatorURL.absoluteString + "/simulator/scenarios/view-subscription"
            let body = Data(#"{"originalTransactionId":"\#(otid)","userLocale":"en-US"}"#.utf8)
            let (unset, _) = try await HTTP.send(.POST, scenario, body: body, contentType: "application/json", token: nil)
            #expect(unset == 409)
            try await harness.service.apps.first.appStore.client(for: .sandbox).setRealtimeURL(harness.baseURL + "/v1/retention/realtime")
            let (status, data) = try await HTTP.send(.POST, scenario, body: body, contentType: "application/json", token: nil)
            #expect(status == 200)
            let call = data.jsonObject
            #expect(call["status"]?.integerValue == 200)
            #expect(call["answer"] == .object([:]), "no message is approved: Apple's fallback")
            let identifier = try #require(call["requestIdentifier"]?.stringValue)
            let (_, list) = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)")
            let recorded = list.jsonObject["decisions"]?.arrayValue?.contains {
                $0.objectValue?["notificationUUID"]?.stringValue == identifier
            } == true
            // Recorded, unless a loaded machine made it miss the deadline (then nothing is stored).
            let missed = try await RetentionRealtimeTests.deadlineFallbacks(harness)
            #expect(recorded || missed > 0)
        }
    }

    /// Holds the database for `duration`: SQLite's only connection in a write transaction; on
    /// PostgreSQL a transaction holding `offer_decisions` in EXCLUSIVE mode (no decision can be
    /// stored). Returns once the lock is held.
    static func stall(_ harness: ServiceHarness, for duration: Duration) async throws -> Task<Void, any Error> {
        let sql = try #require(harness.service.apps.first.repository as? SQLRepository)
        let (held, signal) = AsyncStream<Void>.makeStream()
        let task = Task {
            try await sql.driver.transaction(timeout: nil) { db in
                if sql.driver.dialect.backend == .postgres {
                    try await db.execute("LOCK TABLE offer_decisions IN EXCLUSIVE MODE")
                }
                signal.yield()
                try? await Task.sleep(for: duration)
            }
        }
        for await _ in held { break }
        return task
    }

    /// The App Store's performance test against a service whose database stalls for the whole
    /// run: Verdict answers its fallback at its own deadline. Under Apple's threshold that is a
    /// pass; set above it (`VERDICT_RETENTION_DEADLINE` misconfigured), every answer is late and
    /// the test fails with TIMED_OUT.
    @Test(arguments: TestBackend.selected)
    func aStalledDatabaseFailsTheTestOnlyWhenTheDeadlineIsAboveApplesThreshold(_ backend: TestBackend) async throws {
        // The database stalls for 20 s, longer than either threshold: a pass shows that no answer
        // waited for it, and a 10 s threshold leaves a machine loaded by the whole suite room to
        // deliver a 300 ms answer. The simulator cuts an answer after three thresholds and times it
        // at the cut, so a late answer reports at least the deadline however loaded the machine.
        for (deadline, threshold, expected) in [(300, 10_000, PerformanceTestStatus.pass), (2_500, 2_000, .fail)] {
            try await ServiceHarness.with(backend, extraSettings: ["VERDICT_RETENTION_DEADLINE": "\(deadline)"]) { harness in
                let client = try harness.service.apps.first.appStore.client(for: .sandbox)
                let (_, otid) = try await harness.subscribeFullPriceAnnual()
                try await client.setRealtimeURL(harness.baseURL + "/v1/retention/realtime")
                await harness.store.setPerformanceTestConfig(PerformanceTestConfig(
                    maxConcurrentRequests: 4, totalRequests: 4, totalDuration: 60_000, responseTimeThreshold: Int64(threshold),
                    successRateThreshold: 90))
                let stalled = try await Self.stall(harness, for: .seconds(20))
                defer { stalled.cancel() }
                let id = try #require(try await client.initiatePerformanceTest(originalTransactionId: otid).requestId)
                let until = ContinuousClock.now + .seconds(30)
                var result = try await client.getPerformanceTestResult(requestId: id)
                while result.result == .pending, ContinuousClock.now < until {
                    try await Task.sleep(for: .milliseconds(100))
                    result = try await client.getPerformanceTestResult(requestId: id)
                }
                stalled.cancel()
                _ = await stalled.result
                #expect(result.result == expected, "deadline \(deadline) ms, threshold \(threshold) ms: \(result.failures ?? [:])")
                if expected == .fail {
                    #expect(result.failures?[SendAttemptResult.timedOut.rawValue] == 4)
                    #expect((result.responseTimes?.p50 ?? 0) >= Int64(deadline) - 50)
                }
            }
        }
    }
}
