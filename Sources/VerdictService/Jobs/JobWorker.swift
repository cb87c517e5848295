import AppStoreServer
import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import Tracing
import VerdictStorage

/// Claims jobs from the durable queue with leases and runs them with their handlers.
///
/// Several processes can run workers on one PostgreSQL database: each claim leases jobs to this
/// worker's unique owner id, so a job runs in one place at a time. While a job runs, its lease is
/// renewed every third of the lease (a heartbeat), so leases can be short: a crashed worker's jobs
/// are claimed again elsewhere within one lease (15 s), however long a job takes. On graceful
/// shutdown the worker stops claiming, lets running jobs finish, and gives back the leases it
/// still holds.
public final class JobWorker: Service, Sendable {
    /// The furthest a retry is put off, whatever time a handler asks for (a `Retry-After` comes
    /// from outside: a broken or hostile answer must not park a job for years).
    static let longestRetryDelay: Int64 = 24 * 3_600_000

    public let owner: String
    let repository: any JobStore
    let handlers: [String: any JobHandler]
    let metrics: ServiceMetrics
    let signal: JobSignal
    let concurrency: Int
    /// How long a claim (or a renewal) leases a job unless the worker is told otherwise.
    public static let defaultLeaseMilliseconds: Int64 = 15_000
    let leaseMilliseconds: Int64
    let pollInterval: Duration
    let backoff: RetryBackoff
    let logger: Logger
    let now: @Sendable () -> Date
    /// Awaited before the first claim (the schema brought up to date).
    let ready: @Sendable () async -> Void

    public init(
        repository: any JobStore,
        handlers: [any JobHandler],
        metrics: ServiceMetrics,
        signal: JobSignal,
        concurrency: Int = 8,
        leaseMilliseconds: Int64 = JobWorker.defaultLeaseMilliseconds,
        pollInterval: Duration = .milliseconds(500),
        backoff: RetryBackoff = RetryBackoff(),
        logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() },
        ready: @escaping @Sendable () async -> Void = {}
    ) {
        self.ready = ready
        self.owner = "\(ProcessInfo.processInfo.hostName)/\(getpid())/\(UUID().uuidString.prefix(8))"
        self.repository = repository
        self.handlers = Dictionary(handlers.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
        self.metrics = metrics
        self.signal = signal
        self.concurrency = concurrency
        self.leaseMilliseconds = leaseMilliseconds
        self.pollInterval = pollInterval
        self.backoff = backoff
        self.logger = logger
        self.now = now
    }

    /// Runs until graceful shutdown (or cancellation), then releases this worker's leases.
    public func run() async throws {
        await ready()
        await withDiscardingTaskGroup { group in
            let slots = Slots(capacity: concurrency)
            // Crashed workers' jobs (expired leases) are looked for at most once per poll interval,
            // not on every claim: a claim after each finished job would otherwise cost two statements.
            let clock = ContinuousClock()
            var lastLeaseSweep: ContinuousClock.Instant?
            // Stops claiming on graceful shutdown; jobs already running finish before the group returns.
            while !Task.isCancelled, !Task.isShuttingDownGracefully {
                let free = slots.free
                var claimed: [JobRecord] = []
                if free > 0 {
                    let sweep = lastLeaseSweep.map { clock.now - $0 >= pollInterval } ?? true
                    do {
                        claimed = try await repository.claimJobs(
                            owner: owner, limit: free, leaseMilliseconds: leaseMilliseconds,
                            now: now().appStoreMilliseconds, kinds: Array(handlers.keys), includeExpiredLeases: sweep
                        )
                        if sweep { lastLeaseSweep = clock.now }
                    } catch {
                        logger.warning("claiming jobs failed", metadata: ["error": "\(StorageErrorText.describe(error))"])
                    }
                }
                for job in claimed {
                    slots.take()
                    group.addTask {
                        await self.execute(job)
                        slots.give()
                        self.signal.notify()
                    }
                }
                if claimed.count < free || free == 0 {
                    await signal.wait(timeout: pollInterval)
                }
            }
        }
        do {
            let released = try await repository.releaseLeases(owner: owner, now: now().appStoreMilliseconds)
            if released > 0 { logger.info("released job leases", metadata: ["count": "\(released)"]) }
        } catch {
            logger.warning("releasing job leases failed", metadata: ["error": "\(StorageErrorText.describe(error))"])
        }
    }

    /// Runs one claimed job and records its outcome (only while this worker holds the lease).
    /// The attempt is a span of its own in the trace of the work that enqueued the job (its stored
    /// `traceparent`): a retry is a new span in the same trace, on whichever instance claims it.
    func execute(_ job: JobRecord) async {
        let kind = job.job.kind
        guard let handler = handlers[kind] else { return }
        await withSpan("job \(kind)", context: TraceParent.context(job.job.traceParent), ofKind: .consumer) { span in
            let (outcome, waited) = await TraceRecording.within(span) { await attempt(job, handler: handler) }
            guard span.isRecording else { return }
            span.attributes["verdict.job.id"] = Int(job.id)
            span.attributes["verdict.job.kind"] = kind
            span.attributes["verdict.job.attempt"] = job.attempts
            span.attributes["verdict.app"] = job.app
            span.attributes["verdict.job.outcome"] = waited ? "waiting" : outcome
            // A job that waits (for a customer's history, for a key) is not failing.
            if outcome != "done", !waited { span.setStatus(SpanStatus(code: .error)) }
        }
    }

    /// One attempt of `job`: its outcome (`done`, `retry`, `dead`, `lease_lost`), and whether it
    /// only waits (``JobFailure/waiting(delayMilliseconds:_:)``).
    private func attempt(_ job: JobRecord, handler: any JobHandler) async -> (outcome: String, waited: Bool) {
        let kind = job.job.kind
        let start = ContinuousClock.now
        var logger = self.logger
        logger[metadataKey: "job_id"] = "\(job.id)"
        logger[metadataKey: "job_kind"] = .string(kind)
        let heartbeat = Task { [logger] in await self.renewLease(of: job, logger: logger) }
        defer { heartbeat.cancel() }
        let outcome: String
        var waited = false
        do {
            let result = try await handler.run(job, logger: logger)
            let completed = try await repository.completeJob(id: job.id, owner: owner, result: result, now: now().appStoreMilliseconds)
            outcome = completed ? "done" : "lease_lost"
        } catch {
            outcome = await recordFailure(job, error: error, logger: logger)
            if case JobFailure.waiting = error, outcome == "retry" { waited = true }
        }
        metrics.job(kind: kind, outcome: outcome, duration: ContinuousClock.now - start)
        return (outcome, waited)
    }

    /// Renews `job`'s lease every third of the lease until cancelled (the job finished), or
    /// until the lease was lost (another worker claimed the job after a renewal failed for a whole
    /// lease): the job's outcome is then not recorded here (`lease_lost`).
    private func renewLease(of job: JobRecord, logger: Logger) async {
        let interval = Duration.milliseconds(max(leaseMilliseconds / 3, 10))
        while true {
            try? await Task.sleep(for: interval)
            if Task.isCancelled { return }
            do {
                let at = now().appStoreMilliseconds
                guard try await repository.renewLease(id: job.id, owner: owner, until: at + leaseMilliseconds) else {
                    logger.warning("job lease lost while the job runs")
                    return
                }
            } catch {
                logger.warning("renewing a job lease failed", metadata: ["error": "\(StorageErrorText.describe(error))"])
            }
        }
    }

    private func recordFailure(_ job: JobRecord, error: any Error, logger: Logger) async -> String {
        let nowMs = now().appStoreMilliseconds
        let message: String
        var retryAt: Int64?
        var waiting = false
        switch error {
        case JobFailure.permanent(let text):
            message = text
        case JobFailure.retry(let at, let text):
            message = text
            retryAt = job.attempts < job.job.maxAttempts ? min(max(at, nowMs), nowMs + Self.longestRetryDelay) : nil
        case JobFailure.waiting(let delay, let text):
            message = text
            retryAt = nowMs + delay
            waiting = true
        default:
            message = String(describing: error)
            retryAt = job.attempts < job.job.maxAttempts ? nowMs + backoff.delay(afterAttempts: job.attempts) : nil
        }
        do {
            let recorded = try await repository.failJob(
                id: job.id, owner: owner, error: message, retryAt: retryAt, countsAsAttempt: !waiting, now: nowMs)
            guard recorded else { return "lease_lost" }
        } catch {
            logger.warning("recording a job failure failed", metadata: ["error": "\(StorageErrorText.describe(error))"])
            return "lease_lost"
        }
        if retryAt == nil {
            logger.error("job is dead", metadata: ["attempts": "\(job.attempts)", "error": .string(message)])
            return "dead"
        }
        logger.notice("job will be retried", metadata: ["attempts": "\(job.attempts)", "error": .string(message)])
        return "retry"
    }
}

/// Counts free execution slots of a worker.
private final class Slots: Sendable {
    private let count: Mutex<Int>
    init(capacity: Int) { count = Mutex(capacity) }
    var free: Int { count.withLock { $0 } }
    func take() { count.withLock { $0 -= 1 } }
    func give() { count.withLock { $0 += 1 } }
}
