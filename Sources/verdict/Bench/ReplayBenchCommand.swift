import ArgumentParser
import Foundation
import Logging
import RuleEngine
import VerdictService
import VerdictStorage

/// `verdict bench replay`: seeds a database with a generated history of stored decisions (offer
/// decisions and consumption requests decided for real by the shipped bundle, stored as the
/// service stores them) and replays it with a candidate bundle through the code path of
/// `verdict rules replay` (``RuleReplayRunner`` over a read-only repository). Prints the seeding
/// time, then decisions replayed, wall time, decisions per second, the peak resident memory of
/// the replay and the report's totals.
struct ReplayBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Seed stored decisions and replay them with a candidate bundle; print decisions per second.",
        discussion: """
            The history is spread over \(Self.period.days) days from \(RuleTime.renderTimestamp(Self.period.since)), \
            each customer deciding about three times; 10 % of it consumption requests. Seeding refuses a database \
            that already holds decisions (replay it with --skip-seed). The replay's peak memory is measured \
            from the end of seeding.
            """
    )

    /// The period the history spans: October to December 2026 (the shipped year-end campaign starts on 1 December).
    static let period = (since: RuleTime.parseTimestamp("2026-10-01T00:00:00Z")!, days: 92)
    /// Transactions in the longest customer history (three years of monthly payments).
    static let historyLength = 36

    @Option(help: "sqlite:PATH or postgres://… (default sqlite:.verdict-bench/replay.sqlite).")
    var databaseUrl = "sqlite:.verdict-bench/replay.sqlite"

    @Option(help: "Decisions to seed.")
    var count = 1_000_000

    @Option(help: "The bundle that decides the seeded history (and the default candidate).")
    var rulesDir = RulesCommandSupport.defaultDirectory

    @Flag(help: "Seed, do not replay.")
    var seedOnly = false

    @Flag(help: "Replay what the database holds, do not seed.")
    var skipSeed = false

    @Option(help: "The candidate bundle folder (default: --rules-dir).")
    var candidate: String?

    func validate() throws {
        if count < 1 { throw ValidationError("--count must be at least 1, found \(count)") }
        if seedOnly && skipSeed { throw ValidationError("--seed-only and --skip-seed exclude each other") }
    }

    func run() async throws {
        let url = try DatabaseURL(parsing: databaseUrl)
        if !skipSeed { try ReplayBenchSeeding.createFolder(of: url) }
        var logger = Logger(label: "verdict.bench.replay")
        logger.logLevel = .warning
        guard let active = RulesCommandSupport.load(rulesDir) else { throw ExitCode.failure }
        if !skipSeed {
            let seeded = try await ReplayBenchSeeding.seed(
                url, bundle: active, count: count, customers: max(1, count / 3), surroundings: false,
                skipSeed: "replay them", logger: logger)
            print(String(format: "seeded %d decisions (%d offer decisions, %d consumption requests) in %.1f s = %.0f decisions/s",
                         seeded.offers + seeded.refunds, seeded.offers, seeded.refunds, seeded.seconds,
                         Double(seeded.offers + seeded.refunds) / seeded.seconds))
        }
        if !seedOnly { try await replay(url, active: active, logger: logger) }
    }

    private func replay(_ url: DatabaseURL, active: RuleBundle, logger: Logger) async throws {
        let candidateDirectory = candidate ?? rulesDir
        guard let candidateBundle = RulesCommandSupport.loadTested(candidateDirectory, images: false) else {
            print("\(candidateDirectory): the candidate was refused")
            throw ExitCode.failure
        }
        let measuredAlone = PeakMemory.reset()
        var options = StorageOptions()
        options.readOnly = true
        let repository = try await RepositoryFactory.open(databaseURL: url, options: options, logger: logger)
        var replay = RuleReplay(candidate: candidateBundle, candidateSource: candidateDirectory, baseline: .recorded,
                                reference: active)
        let clock = ContinuousClock()
        let started = clock.now
        let line = ProgressLine()
        do {
            // All of it: the generated history reaches past today.
            try await RuleReplayRunner(store: repository).run(
                &replay, options: .init(period: DecisionPeriod(until: .max)), now: Int64(Date().timeIntervalSince1970 * 1000)
            ) { line.show($0) }
            line.finish()
            try await repository.shutdown()
        } catch {
            try? await repository.shutdown()
            throw error
        }
        let seconds = (clock.now - started).seconds
        let report = replay.report()
        print(String(format: "replayed %d decisions in %.1f s = %.0f decisions/s", report.totals.replayed, seconds,
                     Double(report.totals.replayed) / seconds))
        print("peak resident memory\(measuredAlone ? " of the replay" : ""): \(PeakMemory.describe(PeakMemory.bytes))")
        for section in report.sectionTotals {
            let totals = section.totals
            print("  \(section.section.rawValue): \(totals.replayed) replayed, \(totals.changed) changed, "
                    + "\(totals.unchanged) unchanged, \(totals.errors) with errors")
        }
    }
}
