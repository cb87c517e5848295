import Foundation
import VerdictStorage
import VerdictRequests

/// Starts a replay asked for through the API or the console: the candidate checked and tested at
/// once (``CandidateRefusal`` otherwise), the replay stored and its job enqueued in one
/// transaction, the worker woken.
struct ReplayLauncher: Sendable {
    let repository: any RuleReplayStore
    let signal: JobSignal
    let now: @Sendable () -> Date

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
