import Foundation
import Logging
import RuleEngine
import Synchronization
import VerdictStorage
import VerdictRequests

/// Runs a replay asked for through the API (`POST /v1/rules/replay`) as a durable job: one at a
/// time per instance (a second one waits), progress recorded about once a second, the job's lease
/// renewed while it runs, stopped between pages when cancelled, and the JSON report stored at the
/// end. A replay whose instance died runs again from the start on another.
struct RuleReplayJob: JobHandler {
    static let kind = "rule-replay"
    var kind: String { Self.kind }

    /// The job's input.
    struct Payload: Codable {
        var replayId: String
    }

    /// Why a running replay stopped early.
    enum Stopped: Error {
        case cancelled
        case leaseLost
    }

    let repository: any DecisionHistoryStore & RuleReplayStore & JobStore
    let rules: BundleStore
    let leaseMilliseconds: Int64
    let now: @Sendable () -> Date
    /// Whether this instance is running a replay.
    let gate = ReplayGate()

    /// The job that runs replay `id`.
    static func job(replayId: String, at: Int64) throws -> NewJob {
        let payload = String(decoding: try JSONEncoder().encode(Payload(replayId: replayId)), as: UTF8.self)
        return NewJob(kind: kind, payload: payload, dedupeKey: "rule-replay:\(replayId)", runAt: at, maxAttempts: 5, createdAt: at,
                      traceParent: TraceParent.current())
    }

    func run(_ job: JobRecord, logger: Logger) async throws -> String? {
        let payload = try JSONDecoder().decode(Payload.self, from: Data(job.job.payload.utf8))
        guard let record = try await repository.replay(id: payload.replayId) else {
            throw JobFailure.permanent("replay \(payload.replayId) does not exist")
        }
        guard !record.state.isFinished else { return "{\"state\":\"\(record.state.rawValue)\"}" }
        guard gate.enter() else {
            throw JobFailure.waiting(delayMilliseconds: 5_000, "another replay is running in this instance")
        }
        defer { gate.leave() }
        let state = try await replay(record, owner: job.leaseOwner, jobId: job.id, logger: logger)
        return "{\"state\":\"\(state.rawValue)\"}"
    }

    private func replay(_ record: RuleReplayRecord, owner: String?, jobId: Int64, logger: Logger) async throws
        -> RuleReplayRecord.State {
        let request = try JSONDecoder().decode(ReplayRequest.self, from: Data(record.request.utf8))
        let candidate: RuleBundle
        do {
            candidate = try CandidateRefusal.check(request.bundleFiles)
        } catch {
            return try await finish(record.id, .failed, error: "the candidate no longer checks: \(error.body.error.message)")
        }
        let active = rules.current
        var baseline = ReplayBaseline.recorded
        if request.baseline == "active" {
            guard let active else { return try await finish(record.id, .failed, error: "no active bundle is loaded") }
            baseline = .bundle(active, source: "active")
        }
        var replay = RuleReplay(candidate: candidate, candidateSource: "upload", baseline: baseline, reference: active,
                                sections: request.sections)
        let options = RuleReplayRunner.Options(
            period: DecisionPeriod(since: request.since, until: request.until), sections: request.sections, sample: request.sample)
        let started = now().appStoreMilliseconds
        let checkpoint = Checkpoint(every: 1_000, renewEvery: max(1_000, leaseMilliseconds / 3))
        do {
            try await RuleReplayRunner(store: repository).run(&replay, options: options, now: started) { progress in
                try await save(progress, id: record.id, owner: owner, jobId: jobId, checkpoint: checkpoint)
            }
        } catch Stopped.cancelled {
            logger.info("rule replay cancelled", metadata: ["replay": .string(record.id)])
            return .cancelled
        }
        let report = replay.report(since: request.since, until: request.until ?? started, sample: request.sample)
        let json = String(decoding: try ReplayReportFiles.json(report), as: UTF8.self)
        return try await finish(record.id, .done, report: json)
    }

    /// Throttles the writes a running replay makes: progress about once a second, the lease a few
    /// times per lease period.
    final class Checkpoint: Sendable {
        struct State {
            var lastProgress: ContinuousClock.Instant?
            var lastRenewal = ContinuousClock.now
        }

        let every: Duration
        let renewEvery: Duration
        let state = Mutex(State())

        init(every milliseconds: Int64, renewEvery renewal: Int64) {
            every = .milliseconds(milliseconds)
            renewEvery = .milliseconds(renewal)
        }

        /// Which writes are due now.
        func due(final: Bool) -> (progress: Bool, renewal: Bool) {
            state.withLock { state in
                let now = ContinuousClock.now
                let progress = final || state.lastProgress.map { now - $0 >= every } ?? true
                let renewal = now - state.lastRenewal >= renewEvery
                if progress { state.lastProgress = now }
                if renewal { state.lastRenewal = now }
                return (progress, renewal)
            }
        }
    }

    private func save(_ progress: RuleReplayRunner.Progress, id: String, owner: String?, jobId: Int64,
                        checkpoint: Checkpoint) async throws {
        let at = now().appStoreMilliseconds
        let due = checkpoint.due(final: progress.done == progress.total)
        if progress.done == 0 {
            guard try await repository.startReplay(id: id, total: progress.total, at: at) else { throw Stopped.cancelled }
        } else if due.progress {
            guard try await repository.updateReplayProgress(id: id, done: progress.done, at: at) else { throw Stopped.cancelled }
        }
        if due.renewal, let owner {
            guard try await repository.renewLease(id: jobId, owner: owner, until: at + leaseMilliseconds) else {
                throw Stopped.leaseLost
            }
        }
    }

    private func finish(_ id: String, _ state: RuleReplayRecord.State, report: String? = nil, error: String? = nil) async throws
        -> RuleReplayRecord.State {
        let finished = try await repository.finishReplay(id: id, state: state, report: report, error: error, at: now().appStoreMilliseconds)
        return finished ? state : .cancelled
    }
}

/// One replay at a time per instance: `enter()` is true for the one that may run.
final class ReplayGate: Sendable {
    private let running = Mutex(false)

    /// Takes the gate; false when a replay already holds it.
    func enter() -> Bool {
        running.withLock { running in
            defer { running = true }
            return !running
        }
    }

    func leave() {
        running.withLock { $0 = false }
    }
}
