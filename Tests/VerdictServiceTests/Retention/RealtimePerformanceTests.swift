import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictService

/// Apple's performance test run by the simulator against the live service: every signed realtime
/// request answered 200 with a valid body within the threshold.
@Suite struct RealtimePerformanceTests {
    @Test(arguments: ServiceBackend.selected)
    func theServicePassesThePerformanceTest(_ backend: ServiceBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: RetentionRealtimeTests.settings) { harness in
            let client = try harness.service.appStore.client(for: .sandbox)
            _ = try await RetentionMessageSync(
                client: client, repository: harness.service.repository, messages: RetentionRealtimeTests.bundle.messages
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
            try await harness.service.appStore.client(for: .sandbox).setRealtimeURL(harness.baseURL + "/v1/retention/realtime")
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
}
