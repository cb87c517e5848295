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

        public init(period: DecisionPeriod = DecisionPeriod(), sections: [Decision.Section] = [.offers, .refunds],
                    sample: Int? = nil, pageSize: Int = 500) {
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
        func planned(_ section: Decision.Section) -> Int {
            guard options.sections.contains(section) else { return 0 }
            let count = section == .offers ? counts.offers : counts.refunds
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
        let decoder = JSONDecoder()
        for section in options.sections {
            let count = section == .offers ? counts.offers : counts.refunds
            var sampler = EvenSample(total: count, keep: options.sample ?? count)
            var cursor: DecisionCursor?
            while true {
                try Task.checkCancellation()
                let page = try await self.page(section, options, after: cursor, decoder: decoder)
                guard let last = page.last else { break }
                cursor = DecisionCursor(decidedAt: last.decidedAt, id: last.id)
                for replayCase in page where sampler.next() {
                    replay.replay(replayCase)
                    done += 1
                }
                try await report()
                if page.count < options.pageSize { break }
            }
        }
        try await report()
    }

    private func page(_ section: Decision.Section, _ options: Options, after cursor: DecisionCursor?,
                      decoder: JSONDecoder) async throws -> [ReplayCase] {
        switch section {
        case .offers:
            try await store.offerDecisions(decidedIn: options.period, after: cursor, limit: options.pageSize)
                .map { record throws in try ReplayCase(record, decoder: decoder) }
        case .refunds:
            try await store.consumptionRequests(decidedIn: options.period, after: cursor, limit: options.pageSize)
                .map { record throws in try ReplayCase(record, decoder: decoder) }
        }
    }
}

/// Picks `keep` of `total` items in order, evenly spread: item `i` is kept when `i × keep mod
/// total < keep`, which keeps exactly `keep` (all when `keep ≥ total`).
struct EvenSample {
    let total: Int
    let keep: Int
    private var index = 0

    init(total: Int, keep: Int) {
        self.total = total
        self.keep = min(keep, total)
    }

    mutating func next() -> Bool {
        defer { index += 1 }
        guard keep < total else { return true }
        return total > 0 && (index * keep) % total < keep
    }
}
