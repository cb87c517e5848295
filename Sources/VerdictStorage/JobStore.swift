/// The durable job queue: leased to workers, retried with backoff, shared by several processes.
/// Part of ``VerdictRepository``: every method is one database transaction; times are UNIX milliseconds.
///
/// One queue serves every app, and each job says its app (``JobRecord/app``). Scoped to the
/// repository's app: ``enqueue(_:)`` (the job is this app's; dedupe keys are per app) and
/// ``wakeNotificationJobs(originalTransactionId:now:)``. Process-wide, whichever app the
/// repository acts for: claims (one worker runs every app's jobs), what is done by job id
/// (complete, fail, renew, ``job(id:)``), ``releaseLeases(owner:now:)``, and the operator's views
/// ``jobs(state:limit:)`` and ``queueStatistics(now:)``.
public protocol JobStore: Sendable {
    /// Enqueues a job as this app's. With a `dedupeKey` already used by a job of this app that is
    /// not dead, nothing is enqueued and the existing job's id is returned with `created == false`;
    /// another app's job with the same key does not count.
    func enqueue(_ job: NewJob) async throws -> JobEnqueueResult

    /// Claims up to `limit` runnable jobs of any app for `owner` with a lease until `now + leaseMilliseconds`.
    /// Runnable: queued with `runAt <= now`, or running with an expired lease (a crashed worker).
    /// Ordered by deadline (jobs without one last), then `runAt`, then id. Increments `attempts`.
    /// Several processes may call this concurrently: a job is never leased to two owners at once
    /// (PostgreSQL: `FOR UPDATE SKIP LOCKED`).
    /// With `includeExpiredLeases` false only queued jobs are claimed: a worker that claims often
    /// looks for crashed workers' jobs now and then instead of on every claim.
    func claimJobs(owner: String, limit: Int, leaseMilliseconds: Int64, now: Int64, kinds: [String]?,
                   includeExpiredLeases: Bool) async throws -> [JobRecord]

    /// Marks a job done if `owner` still holds its lease. When the job belongs to a notification,
    /// the notification becomes `processed` with `result` in the same transaction and its
    /// `processedCount` is incremented. Returns false (and changes nothing) if the lease was lost.
    @discardableResult
    func completeJob(id: Int64, owner: String, result: String?, now: Int64) async throws -> Bool

    /// Records a failed attempt if `owner` still holds the lease: back to queued at `retryAt`,
    /// or `dead` when `retryAt` is nil (a notification job's notification becomes `failed`).
    /// With `countsAsAttempt` false (a job that could not run yet, e.g. waiting for history), the
    /// claim's attempt is given back, so waiting never uses up a job's attempts.
    @discardableResult
    func failJob(id: Int64, owner: String, error: String, retryAt: Int64?, countsAsAttempt: Bool, now: Int64) async throws -> Bool

    /// Makes the queued jobs of this app's notifications about `originalTransactionId` runnable at
    /// `now` (a decision waiting for that customer's history, once the history sync completed).
    /// Returns how many were woken.
    @discardableResult
    func wakeNotificationJobs(originalTransactionId: String, now: Int64) async throws -> Int

    /// Extends the lease `owner` holds on a running job to `until` (a long job's heartbeat).
    /// False when the lease was lost (expired and claimed by another worker, or the job ended).
    func renewLease(id: Int64, owner: String, until: Int64) async throws -> Bool

    /// Gives back every lease `owner` holds (graceful shutdown): those jobs become queued, runnable now.
    @discardableResult
    func releaseLeases(owner: String, now: Int64) async throws -> Int

    /// The job with `id`, in any state, of any app.
    func job(id: Int64) async throws -> JobRecord?
    /// Jobs in one state, newest first: of every app (`apps` nil), or of those apps only.
    func jobs(state: JobState, limit: Int, apps: [String]?) async throws -> [JobRecord]
    /// Queue depth and age per state over every app's jobs, for metrics and `/readyz`.
    func queueStatistics(now: Int64) async throws -> QueueStatistics
}

extension JobStore {
    /// Jobs of every app in one state, newest first.
    public func jobs(state: JobState, limit: Int) async throws -> [JobRecord] {
        try await jobs(state: state, limit: limit, apps: nil)
    }

    /// Claims runnable jobs, crashed workers' jobs included.
    public func claimJobs(owner: String, limit: Int, leaseMilliseconds: Int64, now: Int64, kinds: [String]?) async throws
        -> [JobRecord]
    {
        try await claimJobs(owner: owner, limit: limit, leaseMilliseconds: leaseMilliseconds, now: now, kinds: kinds,
                            includeExpiredLeases: true)
    }
}
