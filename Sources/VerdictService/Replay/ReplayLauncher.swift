import Foundation
import VerdictStorage
import VerdictRequests

/// Starts a replay of one app asked for through the API or the console: the candidate checked and
/// tested at once (``CandidateRefusal`` otherwise), the replay stored and its job enqueued in one
/// transaction in the app's repository (the app's ``RuleReplayJob`` runs it, through
/// ``AppJobRouter``), the worker woken. A launcher acts for one app: the API and the console
/// build one per request, for the app the request acts for.
struct ReplayLauncher: Sendable {
    /// The app's repository, acting for it.
    let repository: any RuleReplayStore
    let signal: JobSignal
    let now: @Sendable () -> Date

    /// The launcher of `app`'s replays.
    init(app: AppContext, signal: JobSignal, now: @escaping @Sendable () -> Date) {
        repository = app.repository
        self.signal = signal
        self.now = now
    }

    /// The queued replay of `request` (already validated).
    func launch(_ request: ReplayRequest) async throws -> RuleReplayRecord {
        let candidate = try CandidateRefusal.check(request.bundleFiles)
        let at = now().appStoreMilliseconds
        let record = RuleReplayRecord(
            id: UUID().uuidString.lowercased(), state: .queued, candidateHash: candidate.hash,
            request: String(decoding: try JSONEncoder.service.encode(request), as: UTF8.self), createdAt: at)
        try await repository.createReplay(record, job: try RuleReplayJob.job(replayId: record.id, at: at))
        signal.notify()
        return record
    }
}
