import Synchronization

/// Runs `operation` and answers its value, or nil when `deadline` passes first. The operation is
/// not cancelled when late: it runs to its end (what it stores stays consistent), and `late`
/// receives its value.
enum FirstToFinish {
    static func run<Value: Sendable>(
        deadline: Duration, operation: @escaping @Sendable () async -> Value, late: @escaping @Sendable (Value) -> Void = { _ in }
    ) async -> Value? {
        let claimed = Mutex(false)
        let claim: @Sendable () -> Bool = { claimed.withLock { done in defer { done = true }; return !done } }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            let timer = Task {
                try? await Task.sleep(for: deadline)
                if !Task.isCancelled, claim() { continuation.resume(returning: nil) }
            }
            Task {
                let value = await operation()
                if claim() {
                    timer.cancel()
                    continuation.resume(returning: value)
                } else {
                    late(value)
                }
            }
        }
    }
}
