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

    /// `verdict bench replay` on a small history: the shipped bundle decided every seeded
    /// decision, so replaying it against what was recorded changes nothing (caps included); a
    /// second seeding into the same database is refused, a replay of it alone runs.
    @Test func benchReplaySeedsAndReplaysWithoutChanges() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-bench-replay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["bench", "replay", "--count", "1500", "--rules-dir", ServiceHarness.rulesDirectory,
                         "--database-url", "sqlite:" + directory.appendingPathComponent("replay.sqlite").path]

        let (status, output) = try await ServiceProcess.run(
            arguments, settings: [:], directory: directory, name: "bench-replay", timeout: .seconds(120))
        #expect(status == 0, "\(output.suffix(2_000))")
        let seeded = try #require(Self.value(after: "seeded ", in: output)?.split(separator: " ").first.flatMap { Int($0) })
        #expect(seeded > 1_200 && seeded <= 1_500, "\(output)")
        #expect(output.contains("replayed \(seeded) decisions in"), "\(output)")
        #expect(output.contains("peak resident memory"), "\(output)")
        // Offers, refunds and realtime answers (none seeded): nothing changed in any.
        #expect(output.components(separatedBy: " changed, ").count == 4, "\(output)")
        #expect(output.components(separatedBy: " 0 changed, ").count == 4, "\(output)")

        let (again, refusal) = try await ServiceProcess.run(
            arguments, settings: [:], directory: directory, name: "bench-replay-again", timeout: .seconds(60))
        #expect(again != 0)
        #expect(refusal.contains("already holds \(seeded) decisions"), "\(refusal)")
        let (replayed, replay) = try await ServiceProcess.run(
            arguments + ["--skip-seed"], settings: [:], directory: directory, name: "bench-replay-skip", timeout: .seconds(60))
        #expect(replayed == 0, "\(replay)")
        #expect(replay.contains("replayed \(seeded) decisions in") && !replay.contains("seeded "), "\(replay)")
    }

    /// `verdict bench console` on a small history: it seeds, serves the database in-process, signs
    /// in as a viewer and times every page (each answered 200, or the bench fails).
    @Test func benchConsoleSeedsAndTimesEveryPage() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-bench-console-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try await ServiceProcess.run(
            ["bench", "console", "--count", "600", "--customers", "100", "--requests", "2", "--rules-dir", ServiceHarness.rulesDirectory,
             "--database-url", "sqlite:" + directory.appendingPathComponent("console.sqlite").path],
            settings: [:], directory: directory, name: "bench-console", timeout: .seconds(120))
        #expect(status == 0, "\(output.suffix(2_000))")
        #expect(output.contains("their notifications, customers and transactions in"), "\(output)")
        #expect(output.contains("12 pages, 2 requests each"), "\(output)")
        for page in ["overview (last 365 days)", "decisions of one rule", "customer", "refund requests"] {
            #expect(output.contains("  \(page)"), "\(page): \(output)")
        }
        #expect(output.components(separatedBy: " p99 ").count == 13, "\(output)")
    }

    /// `verdict bench realtime` on a few subscribers: it seeds, answers every paced request 200
    /// (signed offers among them), prints the latency and the service's own histogram, and
    /// refuses to seed the same database twice.
    @Test func benchRealtimeAnswersEveryRequest() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-bench-realtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["bench", "realtime", "--customers", "200", "--rate", "20", "--seconds", "2", "--rules-dir",
                         ServiceHarness.rulesDirectory, "--database-url", "sqlite:" + directory.appendingPathComponent("rt.sqlite").path]
        let (status, output) = try await ServiceProcess.run(
            arguments, settings: [:], directory: directory, name: "bench-realtime", timeout: .seconds(120))
        #expect(status == 0, "\(output.suffix(2_000))")
        #expect(output.contains("seeded 200 subscribers"), "\(output)")
        #expect(output.contains("40 requests at 20/s") && output.contains("40 × 200"), "\(output)")
        #expect(output.contains("offer/answered"), "signed offers are part of the mix: \(output)")
        #expect(output.contains("latency (client, loopback, from when due): p50 ") && output.contains("inside Verdict"), "\(output)")
        let (again, refusal) = try await ServiceProcess.run(
            arguments, settings: [:], directory: directory, name: "bench-realtime-again", timeout: .seconds(120))
        #expect(again != 0)
        #expect(refusal.contains("already holds the bench's subscribers"), "\(refusal)")
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
