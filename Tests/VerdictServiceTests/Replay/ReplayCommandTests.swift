import AppStoreServer
import Foundation
import Testing
import VerdictTestSupport

/// `verdict rules replay` as a product manager runs it, beside the running service on its
/// database: the shipped bundle changes nothing (against the record and against the active
/// bundle); a candidate that does not check or fails a test is refused with positions (exit 1);
/// a bad setting exits 78.
@Suite struct ReplayCommandTests {
    /// A copy of the shipped bundle in a temporary folder, with `old` replaced by `new` in `file`.
    static func candidate(in directory: URL, editing file: String? = nil, _ old: String = "", _ new: String = "") throws -> String {
        let folder = directory.appendingPathComponent("candidate-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in try ReplayCandidates.shipped() {
            let edited = name == file ? text.replacingOccurrences(of: old, with: new) : text
            try Data(edited.utf8).write(to: folder.appendingPathComponent(name))
        }
        return folder.path
    }

    @Test(arguments: TestBackend.selected)
    func theShippedBundleChangesNothingOnTheServicesDatabase(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            _ = try await ReplayEndpointTests.seed(harness)
            let directory = harness.database.directory
            let candidate = try Self.candidate(in: directory)
            for baseline in [[], ["--baseline", "active"]] {
                let json = directory.appendingPathComponent("report-\(baseline.count).json")
                let html = directory.appendingPathComponent("report-\(baseline.count).html")
                let (status, output) = try await ServiceProcess.run(
                    ["rules", "replay", "--candidate", candidate, "--json", json.path, "--html", html.path] + baseline,
                    settings: ["VERDICT_DATABASE_URL": harness.database.url, "VERDICT_RULES_DIR": ServiceHarness.rulesDirectory,
                               "VERDICT_BUNDLE_ID": ServiceHarness.bundleId],
                    directory: directory, name: "replay-\(baseline.count)", timeout: .seconds(60))
                #expect(status == 0, "\(output.suffix(2_000))")
                #expect(output.contains("replayed 5 · changed 0 · unchanged 5 · errors 0"), "\(output.suffix(2_000))")
                let report = try Data(contentsOf: json).jsonObject
                #expect(report[path: "totals.changed"]?.integerValue == 0)
                #expect(report[path: "baseline.kind"]?.stringValue == (baseline.isEmpty ? "recorded" : "bundle"))
                #expect(try String(contentsOf: html, encoding: .utf8).contains("data-json=\"/totals/replayed\">5<"))
            }
        }
    }

    @Test func aCandidateThatDoesNotCheckOrFailsATestIsRefusedWithPositions() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-replay-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let settings = ["VERDICT_DATABASE_URL": "sqlite:" + directory.appendingPathComponent("absent.sqlite").path,
                        "VERDICT_RULES_DIR": ServiceHarness.rulesDirectory, "VERDICT_BUNDLE_ID": "com.example.replay"]
        let broken = try Self.candidate(
            in: directory, editing: "retention.rules.yaml", "if: subscription.isInBillingRetry", "if: subscription.isInBillingRetyr")
        let (status, output) = try await ServiceProcess.run(
            ["rules", "replay", "--candidate", broken], settings: settings, directory: directory, name: "broken")
        #expect(status == 1)
        #expect(output.contains("\(broken)/retention.rules.yaml:75:24: error"), "\(output.suffix(2_000))")
        #expect(output.contains("the candidate was refused"))

        let failing = try Self.candidate(
            in: directory, editing: "retention.rules.yaml", "salt: lumen-monthly-depth-2026", "salt: lumen-monthly-depth-2027")
        let (failingStatus, failingOutput) = try await ServiceProcess.run(
            ["rules", "replay", "--candidate", failing], settings: settings, directory: directory, name: "failing")
        #expect(failingStatus == 1)
        #expect(failingOutput.contains("FAIL \(failing)/retention.tests.yaml:"), "\(failingOutput.suffix(2_000))")

        // A good candidate on a database that does not exist: read-only never creates it.
        let good = try Self.candidate(in: directory)
        let (missingStatus, missingOutput) = try await ServiceProcess.run(
            ["rules", "replay", "--candidate", good], settings: settings, directory: directory, name: "missing")
        #expect(missingStatus == 1)
        #expect(missingOutput.contains("no SQLite database at"), "\(missingOutput.suffix(2_000))")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("absent.sqlite").path))

        let (configStatus, configOutput) = try await ServiceProcess.run(
            ["rules", "replay", "--candidate", good, "--database-url", "mysql://nope"], settings: [:], directory: directory,
            name: "config")
        #expect(configStatus == 78, "\(configOutput.suffix(1_000))")
    }
}
