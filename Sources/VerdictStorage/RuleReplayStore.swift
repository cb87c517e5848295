/// Replays asked for through the API, run by the job worker. Part of ``VerdictRepository``:
/// every method is one database transaction; times are UNIX milliseconds.
///
/// Acts for the repository's app (``VerdictRepository/app``): a replay is stored with it, and
/// lookups, listings, progress, finishing and cancelling see only its replays (another app's id
/// is unknown).
public protocol RuleReplayStore: Sendable {
    /// Stores a new replay (state `queued`) and enqueues `job` to run it, in one transaction.
    func createReplay(_ replay: RuleReplayRecord, job: NewJob) async throws
    /// The replay with `id`.
    func replay(id: String) async throws -> RuleReplayRecord?
    /// The newest replays first.
    func replays(limit: Int) async throws -> [RuleReplayRecord]
    /// Marks a queued (or restarted) replay `running` at `at` with `total` decisions to replay and
    /// no progress yet. False when the replay is finished (e.g. cancelled meanwhile).
    func startReplay(id: String, total: Int, at: Int64) async throws -> Bool
    /// Records progress of a running replay. False when it is no longer running (cancelled).
    func updateReplayProgress(id: String, done: Int, at: Int64) async throws -> Bool
    /// Ends a replay that is not finished yet: `done` with its report, or `failed` with an error.
    /// False when it had already ended (e.g. cancelled), and then nothing changes.
    func finishReplay(id: String, state: RuleReplayRecord.State, report: String?, error: String?, at: Int64) async throws -> Bool
    /// Cancels a replay that is queued or running; returns it as it is afterwards (nil: unknown id).
    func cancelReplay(id: String, at: Int64) async throws -> RuleReplayRecord?
}
