import RuleEngine
import VerdictStorage

/// The stored decisions of one section, page by page in order, read and typed ahead of the
/// replay: up to ``depth`` pages are in flight, each read as soon as the one before it is (the
/// next page starts after the last row of the previous) and decoded on every core as soon as it
/// arrives, while the caller re-decides the oldest in order. Memory is bounded by the depth,
/// whatever the history's size.
struct ReplayPages {
    /// One page as read, and where it sits in its section.
    struct Page: Sendable {
        let records: [any ReplayableRecord]
        /// The position of the first record in the section (for sampling).
        let first: Int

        /// Where the next page starts.
        var cursor: DecisionCursor? { records.last.map { DecisionCursor(decidedAt: $0.decidedAt, id: $0.id) } }

        /// The sampled records as cases, read and typed for the replay on every core, in order.
        func decode(_ sampler: EvenSample, _ typer: ReplayFactTyper) async throws -> [TypedReplayCase] {
            let kept = records.indices.filter { sampler.keeps(first + $0) }.map { records[$0] }
            return try await kept.concurrentMap { record in try record.replayCase(typedBy: typer) }
        }
    }

    /// Pages in flight ahead of the replay.
    static let depth = 3

    private struct InFlight {
        /// The page, or nil past the last one.
        let read: Task<Page?, any Error>
        let decoded: Task<[TypedReplayCase], any Error>
    }

    private let pageSize: Int
    private let sampler: EvenSample
    private let typer: ReplayFactTyper
    private let fetch: @Sendable (DecisionCursor?) async throws -> [any ReplayableRecord]
    private var inFlight: [InFlight] = []
    private var lastRead: Task<Page?, any Error>?

    /// The pages `fetch` reads (`pageSize` records after a cursor, nil for the first page),
    /// sampled by `sampler` and typed by `typer`.
    init(pageSize: Int, sampler: EvenSample, typer: ReplayFactTyper,
         fetch: @escaping @Sendable (DecisionCursor?) async throws -> [any ReplayableRecord]) {
        self.pageSize = pageSize
        self.sampler = sampler
        self.typer = typer
        self.fetch = fetch
        for _ in 0..<Self.depth { startPage() }
    }

    /// The cases of the next page, in order; nil after the last page.
    mutating func next() async throws -> [TypedReplayCase]? {
        guard !inFlight.isEmpty else { return nil }
        let head = inFlight.removeFirst()
        guard let page = try await head.read.value else { return nil }
        let cases = try await head.decoded.value
        if page.records.count < pageSize {
            cancel()
        } else {
            startPage()
        }
        return cases
    }

    /// Stops reading ahead.
    mutating func cancel() {
        for page in inFlight {
            page.read.cancel()
            page.decoded.cancel()
        }
        inFlight = []
    }

    /// Starts reading the page after the last one started, and decoding it once read.
    private mutating func startPage() {
        let previous = lastRead
        let pageSize = self.pageSize, fetch = self.fetch, sampler = self.sampler, typer = self.typer
        let read = Task<Page?, any Error> {
            guard let previous else { return Page(records: try await fetch(nil), first: 0) }
            guard let before = try await previous.value, before.records.count == pageSize else { return nil }
            return Page(records: try await fetch(before.cursor), first: before.first + before.records.count)
        }
        let decoded = Task { try await read.value?.decode(sampler, typer) ?? [] }
        inFlight.append(InFlight(read: read, decoded: decoded))
        lastRead = read
    }
}
