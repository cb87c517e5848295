import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictService

/// The Retention Messaging setup commands as a user runs them — child processes of `verdict`
/// reading the service's settings — against the simulator: `appstore messages sync|status`,
/// `appstore realtime-url set|get|delete` and `appstore performance-test`.
@Suite struct AppStoreMessagingCommandTests {
    @Test func theSetupCommandsRunAgainstTheAppStore() async throws {
        try await ServiceHarness.with(.sqlite, extraSettings: RetentionRealtimeTests.settings) { harness in
            let directory = harness.database.directory
            func run(_ arguments: [String], _ name: String) async throws -> (status: Int32, output: String) {
                try await ServiceProcess.run(["appstore"] + arguments, settings: harness.environment, directory: directory,
                                             name: name, timeout: .seconds(90))
            }
            let messages = RetentionRealtimeTests.bundle.messages

            let (synced, syncOutput) = try await run(["messages", "sync"], "sync")
            #expect(synced == 0, "\(syncOutput.suffix(2_000))")
            for image in messages.images {
                #expect(syncOutput.contains("image \(image.id) (\(image.size))  \(image.identifier.uuidString.lowercased())  APPROVED  uploaded"),
                        "\(syncOutput)")
            }
            #expect(syncOutput.contains("default com.lumen.pro.annual (en-US) → what-you-lose: set"), "\(syncOutput)")
            let (status, statusOutput) = try await run(["messages", "status"], "status")
            #expect(status == 0 && statusOutput.contains("what-you-lose (en-US)") && statusOutput.contains("APPROVED  unchanged"), "\(statusOutput)")

            let url = "https://verdict.example.com/v1/retention/realtime"
            #expect(try await run(["realtime-url", "get"], "url-none").output.contains("no realtime URL is set (Sandbox)"))
            let (set, setOutput) = try await run(["realtime-url", "set", url], "url-set")
            #expect(set == 0 && setOutput.contains("realtime URL set (Sandbox): \(url)"), "\(setOutput)")
            #expect(try await run(["realtime-url", "get"], "url-get").output.contains(url))
            #expect(try await run(["realtime-url", "delete"], "url-delete").status == 0)
            let (refused, refusal) = try await run(["realtime-url", "set", "http://verdict.example.com/x"], "url-http")
            #expect(refused != 0 && refusal.contains("must be an https:// URL"), "\(refusal)")

            // The performance test calls the running service (the simulator, unlike Apple, takes a
            // loopback http:// URL) and passes.
            let (_, otid) = try await harness.subscribeFullPriceAnnual()
            try await harness.service.apps.first.appStore.client(for: .sandbox).setRealtimeURL(harness.baseURL + "/v1/retention/realtime")
            await harness.store.setPerformanceTestConfig(PerformanceTestConfig(
                maxConcurrentRequests: 2, totalRequests: 10, totalDuration: 60_000, responseTimeThreshold: 20_000, successRateThreshold: 90))
            let (passed, report) = try await run(
                ["performance-test", "--original-transaction-id", otid, "--poll-interval", "1", "--timeout", "60"], "performance")
            #expect(passed == 0, "\(report.suffix(2_000))")
            #expect(report.contains("result PASS") && report.contains("success rate 100%"), "\(report)")
            let (notOriginal, notOriginalOutput) = try await run(
                ["performance-test", "--original-transaction-id", "2999999999999999"], "performance-not-original")
            #expect(notOriginal != 0, "\(notOriginalOutput)")
        }
    }
}
