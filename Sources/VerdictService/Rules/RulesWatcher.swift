import Logging
import ServiceLifecycle
import UnixSignals

/// Reloads the rules when their folder changes (polled every `interval`; nil turns polling off)
/// and on SIGHUP (when `reloadOnHangup`), until graceful shutdown.
struct RulesWatcher: Service {
    let reloader: RulesReloader
    let interval: Duration?
    let reloadOnHangup: Bool

    func run() async throws {
        await withDiscardingTaskGroup { group in
            if reloadOnHangup {
                group.addTask {
                    for await _ in await UnixSignalsSequence(trapping: .sighup) {
                        reloader.reload(reason: "SIGHUP", force: true)
                    }
                }
            }
            if let interval {
                group.addTask {
                    while !Task.isCancelled {
                        do { try await Task.sleep(for: interval) } catch { return }
                        reloader.reload(reason: "files changed")
                    }
                }
            }
            // Stop both loops on graceful shutdown (or cancellation).
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }
}
