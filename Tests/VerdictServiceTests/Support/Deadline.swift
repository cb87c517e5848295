import VerdictStorage

/// Waits for `task` at most `limit`; throws `ServiceTestError` naming `what` when the limit passes
/// first (cancelling the task but not waiting for it), so a stuck task fails the test instead of
/// hanging the whole run.
func value<T: Sendable>(of task: Task<T, any Error>, within limit: Duration, _ what: String) async throws -> T {
    do {
        return try await withDeadline(limit, timeoutError: { ServiceTestError("\(what) did not finish within \(limit)") }) {
            try await task.value
        }
    } catch let error as ServiceTestError {
        task.cancel()
        throw error
    }
}
