import ArgumentParser
import Foundation
import Logging
import RuleEngine
import VerdictService
import VerdictStorage

/// `verdict rules replay --candidate DIR [--baseline DIR|active] [--since DATE] [--until DATE]
/// [--section offers|refunds|retention|both] [--sample N] [--html FILE] [--json FILE] [--app BUNDLE_ID]`:
/// re-decides one app's stored decisions of a period with a candidate bundle, in order, and reports
/// what would have changed. Reads the service's database (same settings as `serve`), read-only.
struct RulesReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay stored decisions with a candidate bundle and report what would have changed.",
        discussion: """
            The candidate must check clean and pass its own tests (exit 1 otherwise, with the positioned \
            errors of `rules check` / `rules test`). The baseline is what was decided (recorded) unless \
            --baseline names a bundle folder or `active` (the service's rules folder), which is then \
            replayed the same way. Exit 0 when the replay ran, whatever changed. See docs/replay.md.
            """
    )

    /// Which sections to replay.
    enum SectionChoice: String, ExpressibleByArgument, CaseIterable {
        case offers, refunds, retention, both

        var sections: [Decision.Section] {
            switch self {
            case .offers: [.offers]
            case .refunds: [.refunds]
            case .retention: [.retention]
            case .both: [.offers, .refunds, .retention]
            }
        }
    }

    @Option(help: "The candidate bundle folder.")
    var candidate: String

    @Option(help: "A bundle folder, or `active` for the service's rules folder (default: what was decided).")
    var baseline: String?

    @Option(help: "Replay decisions made from this instant (ISO 8601 or YYYY-MM-DD, UTC).")
    var since: String?

    @Option(help: "Replay decisions made before this instant (ISO 8601 or YYYY-MM-DD; default now).")
    var until: String?

    @Option(help: "offers, refunds, retention (realtime answers) or both (every section).")
    var section: SectionChoice = .both

    @Option(help: "Replay at most N decisions per section, evenly spread over the period.")
    var sample: Int?

    @Option(help: "Write the HTML report (one self-contained file) here.")
    var html: String?

    @Option(help: "Write the JSON report here.")
    var json: String?

    @Option(help: "sqlite:PATH or postgres://… (default sqlite:verdict.sqlite; also VERDICT_DATABASE_URL).")
    var databaseUrl: String?

    @Option(help: "The app's rules folder, for `--baseline active` and the diff (default Rules; also VERDICT_RULES_DIR; with \"apps\", the app's rules.dir).")
    var rulesDir: String?

    @Option(help: "JSON config file (also VERDICT_CONFIG_FILE).")
    var config: String?

    @Option(help: "The app whose decisions are replayed: its bundle id (default: VERDICT_BUNDLE_ID, as for serve).")
    var app: String?

    func validate() throws {
        if let sample, sample < 1 { throw ValidationError("--sample must be at least 1, found \(sample)") }
        _ = try instant(since, "--since")
        _ = try instant(until, "--until")
    }

    func run() async throws {
        let settings = try await storageSettings()
        guard let candidateBundle = RulesCommandSupport.loadTested(candidate, images: false) else {
            print("\(candidate): the candidate was refused")
            throw ExitCode.failure
        }
        let active = RulesCommandSupport.load(settings.rulesDirectory, images: false)
        let baselineChoice: ReplayBaseline
        switch baseline {
        case nil:
            baselineChoice = .recorded
        case let folder?:
            let directory = folder == "active" ? settings.rulesDirectory : folder
            guard let bundle = folder == "active" ? active : RulesCommandSupport.load(directory, images: false) else {
                print("\(directory): the baseline does not check clean")
                throw ExitCode.failure
            }
            baselineChoice = .bundle(bundle, source: folder == "active" ? "active (\(directory))" : directory)
        }
        var options = StorageOptions()
        options.readOnly = true
        let repository: any VerdictRepository
        do {
            repository = try await RepositoryFactory.open(
                databaseURL: settings.databaseURL, options: options, logger: Logger(label: "verdict.replay")
            ).scoped(to: settings.bundleId)
        } catch {
            RulesCommandSupport.printError("verdict: cannot read the database: \(error)")
            throw ExitCode.failure
        }
        defer { Task { try? await repository.shutdown() } }

        var replay = RuleReplay(candidate: candidateBundle, candidateSource: candidate, baseline: baselineChoice,
                                reference: active, sections: section.sections)
        let period = DecisionPeriod(since: try instant(since, "--since"), until: try instant(until, "--until"))
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let line = ProgressLine()
        try await RuleReplayRunner(store: repository).run(
            &replay, options: .init(period: period, sections: section.sections, sample: sample), now: now
        ) { line.show($0) }
        line.finish()
        try await repository.shutdown()
        let report = replay.report(since: period.since, until: period.until ?? now, sample: sample)
        print(report.renderText())
        if let json {
            try ReplayReportFiles.json(report).write(to: URL(fileURLWithPath: json))
            print("JSON report: \(json)")
        }
        if let html {
            try Data(ReplayReportPage.render(report).utf8).write(to: URL(fileURLWithPath: html))
            print("HTML report: \(html)")
        }
    }

    private func storageSettings() async throws -> StorageSettings {
        var flags: [ConfigurationKey: String] = [:]
        if let databaseUrl { flags[.databaseURL] = databaseUrl }
        if let rulesDir { flags[.rulesDirectory] = rulesDir }
        if let app { flags[.bundleId] = app }
        do throws(ConfigurationError) {
            return try StorageSettings(reader: try await ConfigurationSources.reader(flags: flags, configFile: config))
        } catch {
            throw error.exitCode()
        }
    }

    private func instant(_ text: String?, _ flag: String) throws -> Int64? {
        guard let text else { return nil }
        guard let value = RuleTime.parseTimestamp(text) else {
            throw ValidationError("\(flag) must be a date (YYYY-MM-DD) or an ISO 8601 instant, found '\(text)'")
        }
        return value
    }
}

/// The progress of a replay on standard error: one line rewritten in place (count, rate, ETA).
final class ProgressLine: Sendable {
    /// What is being done to the decisions (`replayed`, `seeded`).
    let verb: String

    init(verb: String = "replayed") {
        self.verb = verb
    }

    func show(_ progress: RuleReplayRunner.Progress) {
        let eta = progress.remainingSeconds.map { String(format: "%.0f s left", $0) } ?? "…"
        let text = String(format: "\r%@ %d/%d · %.0f decisions/s · %@", verb, progress.done, progress.total, progress.rate, eta)
        FileHandle.standardError.write(Data(text.utf8))
    }

    func finish() {
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
