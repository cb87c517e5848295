import Foundation
import Logging
import RuleEngine
import Synchronization

/// Loads the rules folder into the ``BundleStore`` (which checks the candidate and runs its tests
/// before swapping it in, keeping the last good bundle) and remembers what happened, for
/// `GET /v1/rules`, the logs and the reload-failure metric.
///
/// A candidate is judged once: polling the same files again does nothing, so a refused bundle is
/// logged and counted once, not at every poll.
public final class RulesReloader: Sendable {
    /// The outcome of the last refused candidate.
    public struct RejectedAttempt: Sendable {
        public var at: Date
        public var rejection: BundleStore.Rejection
    }

    private struct State {
        var loadedAt: Date?
        var lastRejected: RejectedAttempt?
        /// Fingerprint of the files last judged (bundle hash, or the read error's text).
        var lastJudged: String?
    }

    public let store: BundleStore
    public let directory: String
    private let metrics: ServiceMetrics
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    public init(store: BundleStore, directory: String, metrics: ServiceMetrics, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.directory = directory
        self.metrics = metrics
        self.logger = logger
        self.now = now
    }

    /// When the active bundle was activated.
    public var loadedAt: Date? { state.withLock { $0.loadedAt } }
    /// The last refused candidate, if any since start.
    public var lastRejected: RejectedAttempt? { state.withLock { $0.lastRejected } }

    /// Reads the folder and judges it if its files changed since the last judgement (or always,
    /// with `force`, e.g. on SIGHUP).
    @discardableResult
    public func reload(reason: String, force: Bool = false) -> BundleStore.ReloadOutcome? {
        let files: [BundleSourceFile]
        let fingerprint: String
        var readError: RuleBundleFiles.ReadError?
        do {
            files = try RuleBundleFiles.read(directory: directory)
            fingerprint = BundleHash.compute(files)
        } catch {
            files = []
            fingerprint = "unreadable: \(error.description)"
            readError = error
        }
        let seen = state.withLock { state -> Bool in
            defer { state.lastJudged = fingerprint }
            return state.lastJudged == fingerprint
        }
        if seen && !force { return nil }
        let outcome = readError == nil ? store.reload(files: files, directory: directory) : store.reload(directory: directory)
        switch outcome {
        case .activated(let bundle):
            state.withLock { $0.loadedAt = now() }
            logger.info("rules loaded", metadata: [
                "hash": .string(bundle.hash), "directory": .string(directory), "reason": .string(reason),
            ])
        case .unchanged:
            break
        case .rejected(let rejection):
            state.withLock { $0.lastRejected = RejectedAttempt(at: now(), rejection: rejection) }
            metrics.rulesReloadFailure()
            logger.error("rules rejected; the previous bundle stays active", metadata: [
                "directory": .string(directory), "reason": .string(reason), "errors": .string(rejection.render()),
            ])
        }
        return outcome
    }
}
