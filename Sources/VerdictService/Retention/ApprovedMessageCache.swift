import AppStoreServer
import Foundation
import RuleEngine
import Synchronization
import VerdictStorage

/// The message texts Apple approved, kept in memory for the realtime path: read from the store at
/// most every ``refreshInterval`` (a failed read keeps the last states), so a realtime answer
/// normally reads nothing. `verdict appstore messages sync` writes the states.
final class ApprovedMessageCache: Sendable {
    static let refreshInterval: Duration = .seconds(30)

    private struct State {
        var approved: Set<UUID> = []
        var loadedAt: ContinuousClock.Instant?
    }

    private let state = Mutex(State())
    private let repository: any RetentionMessageStore

    init(repository: any RetentionMessageStore) {
        self.repository = repository
    }

    /// The approved texts as last read, without reading (the fallback path).
    var snapshot: ApprovedMessages { ApprovedMessages(state.withLock { $0.approved }) }

    /// The approved texts, read again when the last read is older than ``refreshInterval``.
    func current() async -> ApprovedMessages {
        let stale = state.withLock { state in
            guard let loadedAt = state.loadedAt else { return true }
            return ContinuousClock.now - loadedAt > Self.refreshInterval
        }
        if stale { await reload() }
        return snapshot
    }

    /// Reads the states now (after a sync, and when stale).
    func reload() async {
        guard let states = try? await repository.retentionMessageStates() else { return }
        let approved = Set(states.filter { $0.review == .approved }.compactMap { UUID(uuidString: $0.messageIdentifier) })
        state.withLock { $0 = State(approved: approved, loadedAt: .now) }
    }
}
