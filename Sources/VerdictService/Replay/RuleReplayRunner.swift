import Foundation
import RuleEngine
import VerdictStorage

/// Streams the stored decisions of a period out of the database, page by page in the order they
/// were made, into a ``RuleReplay``, reporting progress as it goes. Reads only; holds no
/// transaction between pages, so it runs safely beside the service.
public struct RuleReplayRunner: Sendable {
    /// What to replay.
    public struct Options: Sendable {
        public var period: DecisionPeriod
        public var sections: [Decision.Section]
        /// At most this many decisions per section, evenly spread over the period (nil: all).
        public var sample: Int?
        /// Rows read per statement.
        public var pageSize: Int

        public init(period: DecisionPeriod = DecisionPeriod(), sections: [Decision.Section] = [.offers, .refunds, .retention],
                    sample: Int? = nil, pageSize: Int = 1_000) {
            self.period = period
            self.sections = sections
            self.sample = sample
            self.pageSize = pageSize
        }
    }

    /// How far a replay is.
    public struct Progress: Sendable, Hashable, Codable {
        /// Decisions replayed so far.
        public var done: Int
        /// Decisions the replay will replay.
        public var total: Int
        /// Seconds since it started.
        public var elapsedSeconds: Double

        public init(done: Int, total: Int, elapsedSeconds: Double) {
            self.done = done
            self.total = total
            self.elapsedSeconds = elapsedSeconds
        }

        /// Decisions per second so far.
        public var rate: Double { elapsedSeconds > 0 ? Double(done) / elapsedSeconds : 0 }
        /// Seconds left at the current rate (nil before there is a rate).
        public var remainingSeconds: Double? { rate > 0 ? Double(max(0, total - done)) / rate : nil }
    }

    let store: any DecisionHistoryStore

    public init(store: any DecisionHistoryStore) {
        self.store = store
    }

    /// Replays every stored decision of `options` into `replay`. An open-ended period ends at
    /// `now`, so decisions the service makes meanwhile are left out. `progress` is called once
    /// with nothing done, after every page and at the end; an error it throws stops the replay
    /// (so does cancelling the task), between pages.
    public func run(
        _ replay: inout RuleReplay, options: Options, now: Int64,
        progress: @Sendable (Progress) async throws -> Void = { _ in }
    ) async throws {
        let started = ContinuousClock.now
        var options = options
        if options.period.until == nil { options.period.until = now }
        let counts = try await store.decisionCounts(decidedIn: options.period)
        // Offer decisions hold the offers section's and the realtime answers (retention): one read
        // serves both, and the replay keeps the cases of the sections asked for.
        var sources: [Decision.Section] = []
        if options.sections.contains(.offers) || options.sections.contains(.retention) { sources.append(.offers) }
        if options.sections.contains(.refunds) { sources.append(.refunds) }
        func planned(_ source: Decision.Section) -> Int {
            guard sources.contains(source) else { return 0 }
            let count = source == .offers ? counts.offers : counts.refunds
            return min(count, options.sample ?? count)
        }
        let total = planned(.offers) + planned(.refunds)
        var done = 0
        func report() async throws {
            let elapsed = ContinuousClock.now - started
            try await progress(Progress(done: done, total: total, elapsedSeconds: Double(elapsed.components.seconds)
                + Double(elapsed.components.attoseconds) / 1e18))
        }
        try await report()
        let typer = replay.factTyper
        let store = self.store
        let reading = options
        for section in sources {
            let count = section == .offers ? counts.offers : counts.refunds
            // Pages are read and typed ahead on every core; they are re-decided here, in order
            // (caps are simulated over the replay, so deciding stays sequential).
            var pages = ReplayPages(
                pageSize: options.pageSize, sampler: EvenSample(total: count, keep: options.sample ?? count), typer: typer
            ) { cursor in try await Self.page(store, section, reading, after: cursor) }
            defer { pages.cancel() }
            while let cases = try await pages.next() {
                try Task.checkCancellation()
                for typed in cases { replay.replay(typed: typed) }
                done += cases.count
                try await report()
            }
        }
        try await report()
    }

    private static func page(_ store: any DecisionHistoryStore, _ section: Decision.Section, _ options: Options,
                             after cursor: DecisionCursor?) async throws -> [any ReplayableRecord] {
        switch section {
        case .offers:
            try await store.offerDecisions(decidedIn: options.period, after: cursor, limit: options.pageSize)
        case .refunds:
            try await store.consumptionRequests(decidedIn: options.period, after: cursor, limit: options.pageSize)
        case .retention:
            // Read with the offers section (see ``run(_:options:now:progress:)``).
            []
        }
    }
}

/// Picks `keep` of `total` items in order, evenly spread: item `i` is kept when `i × keep mod
/// total < keep`, which keeps exactly `keep` (all when `keep ≥ total`).
struct EvenSample: Sendable {
    let total: Int
    let keep: Int

    init(total: Int, keep: Int) {
        self.total = total
        self.keep = min(keep, total)
    }

    /// Whether item `index` (from 0) is kept.
    func keeps(_ index: Int) -> Bool {
        guard keep < total else { return true }
        return total > 0 && (index * keep) % total < keep
    }
}
