import ArgumentParser
import Foundation
import Logging
import RuleEngine
import VerdictService
import VerdictStorage

/// Fills a database with a ``SyntheticDecisionHistory`` for `verdict bench replay` and `verdict
/// bench console`: batches are generated on every core while the previous batch is written (bulk
/// import, one transaction per kind and batch), so memory stays at two batches whatever the count.
struct ReplayBenchSeeding {
    /// Decisions generated and written at a time.
    static let batchSize = 2_000

    let history: SyntheticDecisionHistory
    let store: any DecisionImportStore
    /// Also stores each batch's notifications, customers and transactions (`verdict bench console`).
    var surroundings: ConsoleBenchSeeding? = nil

    /// Writes decisions `0..<count`; returns how many offer decisions and consumption requests were stored.
    func run(count: Int, progress: (Int) -> Void) async throws -> (offers: Int, refunds: Int) {
        var stored = (offers: 0, refunds: 0)
        var writing: Task<Void, any Error>?
        defer { writing?.cancel() }
        for start in stride(from: 0, to: count, by: Self.batchSize) {
            let batch = try await history.batch(start..<min(count, start + Self.batchSize))
            try await writing?.value
            progress(start)
            stored.offers += batch.offers.count
            stored.refunds += batch.refunds.count
            let store = self.store
            let surroundings = self.surroundings
            writing = Task {
                try await store.importOfferDecisions(batch.offers)
                try await store.importConsumptionRequests(batch.refunds)
                try await surroundings?.store(offers: batch.offers, refunds: batch.refunds)
            }
        }
        try await writing?.value
        progress(count)
        return stored
    }
}

extension ReplayBenchSeeding {
    /// What a seeding stored, and how long it took.
    struct Seeded {
        var offers: Int
        var refunds: Int
        var seconds: Double
    }

    /// Creates the folder of a SQLite file that is about to be seeded.
    static func createFolder(of url: DatabaseURL) throws {
        guard case .sqliteFile(let path) = url else { return }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
    }

    /// Migrates `url` and seeds it with `count` decisions of `customers` customers over the benches'
    /// period, decided by `bundle` (with their notifications, customers and transactions when
    /// `surroundings`), showing progress. Refuses a database that already holds decisions (exit 1,
    /// naming `skipSeed`, what to do instead).
    static func seed(_ url: DatabaseURL, bundle: RuleBundle, count: Int, customers: Int, surroundings: Bool,
                     skipSeed: String, logger: Logger) async throws -> Seeded {
        let repository = try await RepositoryFactory.open(databaseURL: url, logger: logger)
        do {
            try await repository.migrate()
            let existing = try await repository.decisionCounts(decidedIn: DecisionPeriod())
            guard existing.offers + existing.refunds == 0 else {
                RulesCommandSupport.printError(
                    "verdict: the database already holds \(existing.offers + existing.refunds) decisions: \(skipSeed) with "
                        + "--skip-seed, or seed a fresh database")
                throw ExitCode.failure
            }
            let since = ReplayBenchCommand.period.since
            let plan = SyntheticDecisionHistory.Plan(
                count: count, since: since, until: since + Int64(ReplayBenchCommand.period.days) * 86_400_000, customers: customers)
            var seeding = ReplayBenchSeeding(
                history: SyntheticDecisionHistory(
                    bundle: bundle, facts: .lumen(historyLength: ReplayBenchCommand.historyLength), plan: plan),
                store: repository)
            if surroundings { seeding.surroundings = ConsoleBenchSeeding(store: repository) }
            let clock = ContinuousClock()
            let started = clock.now
            let line = ProgressLine(verb: "seeded")
            let stored = try await seeding.run(count: count) { done in
                line.show(RuleReplayRunner.Progress(done: done, total: count, elapsedSeconds: (clock.now - started).seconds))
            }
            line.finish()
            try await repository.shutdown()
            return Seeded(offers: stored.offers, refunds: stored.refunds, seconds: (clock.now - started).seconds)
        } catch {
            try? await repository.shutdown()
            throw error
        }
    }
}
