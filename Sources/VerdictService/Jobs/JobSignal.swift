import Synchronization

/// Wakes the job worker when work was enqueued in this process, so a new notification is
/// processed at once instead of at the next poll. (Jobs enqueued by other processes are found by
/// polling.)
public final class JobSignal: Sendable {
    private let state = Mutex<(pending: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    public init() {}

    /// Signals that jobs may be runnable.
    public func notify() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.pending = true
            return nil
        }
        waiter?.resume()
    }

    /// Returns when notified (immediately if a signal is pending) or after `timeout`.
    func wait(timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let resumeNow = self.state.withLock { state -> Bool in
                        if state.pending {
                            state.pending = false
                            return true
                        }
                        state.waiter?.resume()
                        state.waiter = continuation
                        return false
                    }
                    if resumeNow { continuation.resume() }
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                self.notify()
            }
            await group.next()
            group.cancelAll()
            // The sleeper's notify (or a real one) resumes the waiter; drain it.
            await group.waitForAll()
            self.state.withLock { $0.pending = false }
        }
    }
}
