import Synchronization

/// The hot-reload building block: loads a bundle, checks it, runs its tests,
/// and swaps it in atomically only if everything passes. Keeps the last good bundle and the last
/// rejection's errors. A decision takes `current` once and keeps that immutable bundle to the
/// end, so a swap never changes a decision in flight.
public final class BundleStore: Sendable {
    /// Why a candidate bundle was not activated.
    public struct Rejection: Sendable {
        /// The candidate's hash, when its files could be read.
        public let hash: String?
        /// Its check diagnostics (errors and warnings).
        public let diagnostics: [RuleDiagnostic]
        /// Its test report, when it checked clean but its tests failed.
        public let testReport: RuleTestReport?

        /// The diagnostics rendered, then the failing tests.
        public func render() -> String {
            var blocks = diagnostics.map { $0.render() }
            if let testReport { blocks.append(testReport.render()) }
            return blocks.joined(separator: "\n\n")
        }
    }

    /// What a reload did.
    public enum ReloadOutcome: Sendable {
        /// The candidate passed and is now current.
        case activated(RuleBundle)
        /// The candidate has the current bundle's hash; nothing changed.
        case unchanged(RuleBundle)
        /// The candidate was refused; the previous bundle (if any) stays current.
        case rejected(Rejection)
    }

    private struct State {
        var current: RuleBundle?
        var lastRejection: Rejection?
    }

    private let state = Mutex(State())
    /// Whether every rule and veto must be hit by a test for a bundle to be activated.
    public let requireCoverage: Bool

    /// An empty store (no bundle until the first successful reload).
    public init(requireCoverage: Bool = false) {
        self.requireCoverage = requireCoverage
    }

    /// The active bundle; nil before the first successful reload (callers then answer with safe
    /// defaults: no offer, no refund preference).
    public var current: RuleBundle? { state.withLock { $0.current } }

    /// The last refused candidate, nil when none was refused since the store was created.
    public var lastRejection: Rejection? { state.withLock { $0.lastRejection } }

    /// Reads, checks and tests the bundle in `directory`, activating it if all passes.
    @discardableResult
    public func reload(directory: String) -> ReloadOutcome {
        do {
            return reload(files: try RuleBundleFiles.read(directory: directory), directory: directory)
        } catch {
            return reject(Rejection(hash: nil, diagnostics: [error.diagnostic], testReport: nil))
        }
    }

    /// Checks and tests `files` as a bundle (read from `directory`, whose image files are checked
    /// too), activating it if all passes.
    @discardableResult
    public func reload(files: [BundleSourceFile], directory: String? = nil) -> ReloadOutcome {
        let hash = BundleHash.compute(files)
        if let current, current.hash == hash { return .unchanged(current) }
        let result = directory.map { RuleBundleChecker.check(files, directory: $0) } ?? RuleBundleChecker.check(files)
        guard let bundle = result.bundle else {
            return reject(Rejection(hash: hash, diagnostics: result.diagnostics, testReport: nil))
        }
        let report = RuleTestRunner.run(bundle: bundle, requireCoverage: requireCoverage)
        guard report.succeeded else {
            return reject(Rejection(hash: hash, diagnostics: result.diagnostics, testReport: report))
        }
        state.withLock { $0.current = bundle }
        return .activated(bundle)
    }

    private func reject(_ rejection: Rejection) -> ReloadOutcome {
        state.withLock { $0.lastRejection = rejection }
        return .rejected(rejection)
    }
}
