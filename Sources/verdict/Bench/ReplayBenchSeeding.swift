import Foundation
import RuleEngine
import VerdictService
import VerdictStorage

/// Fills a database with a ``SyntheticDecisionHistory`` for `verdict bench replay`: batches are
/// generated on every core while the previous batch is written (bulk import, one transaction per
/// kind and batch), so memory stays at two batches whatever the count.
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
