import Logging
import ServiceLifecycle
import UnixSignals

/// Reloads every app's rules when its folder changes (polled every `interval`; nil turns polling off)
/// and on SIGHUP (when `reloadOnHangup`), until graceful shutdown.
struct RulesWatcher: Service {
    /// Every app's reloader.
    let reloaders: [RulesReloader]
    let interval: Duration?
    let reloadOnHangup: Bool

    func run() async throws {
        await withDiscardingTaskGroup { group in
            if reloadOnHangup {
                group.addTask {
                    for await _ in await UnixSignalsSequence(trapping: .sighup) {
                        for reloader in reloaders { reloader.reload(reason: "SIGHUP", force: true) }
                    }
                }
            }
            if let interval {
                group.addTask {
                    while !Task.isCancelled {
                        do { try await Task.sleep(for: interval) } catch { return }
                        for reloader in reloaders { reloader.reload(reason: "files changed") }
                    }
                }
            }
            // Stop both loops on graceful shutdown (or cancellation).
            try? await gracefulShutdown()
            group.cancelAll()
        }
    }
}
