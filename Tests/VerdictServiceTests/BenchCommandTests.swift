import Foundation
import Testing

/// `verdict bench intake` as a user runs it: `--print-setup` names the root certificate and the
/// settings, a `verdict serve` child trusts it, the bench sends, and with `--token` waits until
/// the service has processed everything.
@Suite struct BenchCommandTests {
    @Test func benchIntakeSendsAndWaitsForProcessing() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-bench-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("bench-state").path

        let (setupStatus, setup) = try await ServiceProcess.run(
            ["bench", "intake", "--print-setup", "--state-dir", state], settings: [:], directory: directory, name: "setup")
        #expect(setupStatus == 0, "\(setup)")
        let root = try #require(Self.value(after: "root certificate: ", in: setup))
        let bundleId = try #require(Self.value(after: "VERDICT_BUNDLE_ID=", in: setup))

        try await ServiceProcess.group { children in
            let service = try await children.start([
                "VERDICT_DATABASE_URL": "sqlite:" + directory.appendingPathComponent("bench.sqlite").path,
                "VERDICT_BUNDLE_ID": bundleId,
                "VERDICT_ENVIRONMENTS": "Sandbox",
                "VERDICT_ROOT_CERTIFICATES": root,
                "VERDICT_RECONCILE_INTERVAL": "0",
                "VERDICT_API_TOKENS": ServiceHarness.token,
                "VERDICT_RULES_DIR": ServiceHarness.rulesDirectory,
            ], directory: directory, name: "bench-serve")
            let url = "http://127.0.0.1:\(service.port)/v1/notifications"

            let (status, output) = try await ServiceProcess.run(
                ["bench", "intake", "--url", url, "--count", "60", "--concurrency", "4", "--state-dir", state,
                 "--token", ServiceHarness.token],
                settings: [:], directory: directory, name: "bench", timeout: .seconds(120))
            #expect(status == 0, "\(output.suffix(2_000))")
            #expect(output.contains("succeeded (2xx): 60, failed: 0"), "\(output.suffix(2_000))")
            #expect(output.contains("stored and processed: 60 notifications in"), "\(output.suffix(2_000))")
            #expect(try await ProcessTests.completedNotificationJobs(service) == 60)

            // A token the service does not know: the sends succeed, the wait cannot read /metrics.
            let (refused, refusal) = try await ServiceProcess.run(
                ["bench", "intake", "--url", url, "--count", "3", "--concurrency", "1", "--state-dir", state,
                 "--token", "not-a-token"],
                settings: [:], directory: directory, name: "bench-bad-token", timeout: .seconds(60))
            #expect(refused != 0)
            #expect(refusal.contains("succeeded (2xx): 3, failed: 0"))
            #expect(refusal.contains("could not read the service's /metrics: HTTP 401"), "\(refusal.suffix(2_000))")
            #expect(!refusal.contains("not-a-token"), "the token is never printed")
        }
    }

    /// The rest of the first line containing `marker`, without a trailing ` \` and quotes.
    private static func value(after marker: String, in text: String) -> String? {
        guard let line = text.split(separator: "\n").first(where: { $0.contains(marker) }),
              let range = line.range(of: marker) else { return nil }
        var value = line[range.upperBound...].trimmingCharacters(in: .whitespaces)
        if value.hasSuffix("\\") { value = String(value.dropLast()).trimmingCharacters(in: .whitespaces) }
        return value.trimmingCharacters(in: CharacterSet(charactersIn: "'\""))
    }
}
