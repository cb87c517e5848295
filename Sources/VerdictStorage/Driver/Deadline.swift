import Synchronization

/// Runs `operation` in a task of its own and returns its result, or throws `timeoutError()` once
/// `timeout` has passed — without waiting for an operation that ignores cancellation. (A task
/// group would wait for it: a PostgreSQL call stuck on a connection that died mid-transaction
/// would then hold its caller, and graceful shutdown, forever.) On timeout, or when the caller is
/// cancelled, the operation is cancelled and left to finish on its own.
package func withDeadline<T: Sendable>(
    _ timeout: Duration,
    timeoutError: @escaping @Sendable () -> any Error,
    _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = FirstResult<T>()
    let work = Task {
        do { race.deliver(.success(try await operation())) } catch { race.deliver(.failure(error)) }
    }
    let timer = Task {
        try await Task.sleep(for: timeout)
        race.deliver(.failure(timeoutError()))
    }
    defer {
        work.cancel()
        timer.cancel()
    }
    return try await withTaskCancellationHandler {
        try await race.value()
    } onCancel: {
        work.cancel()
        race.deliver(.failure(CancellationError()))
    }
}

/// The first of several racing results, handed to one waiter.
private final class FirstResult<T: Sendable>: Sendable {
    private let state = Mutex<(result: Result<T, any Error>?, waiter: CheckedContinuation<T, any Error>?)>((nil, nil))

    /// Records `result` unless one was recorded already, resuming the waiter.
    func deliver(_ result: Result<T, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<T, any Error>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    /// Waits for the first result.
    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<T, any Error>? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}
