import Synchronization

/// The limits of a replay: offers granted by the replayed decisions themselves, in the order they
/// are replayed, never today's counters. Each scope keeps its grant instants in time order, so a
/// count is two binary searches however long the replay.
final class ReplayLimits: LimitsPort {
    private struct State {
        var grants: [LimitScope: [Int64]] = [:]
        var instant: Int64 = 0
    }

    private let state = Mutex(State())

    /// Moves the replay's clock to `instant` (a decision's `decidedAt`): the windows of the limits
    /// end there, as they did when the service counted them.
    func advance(to instant: Int64) {
        state.withLock { $0.instant = instant }
    }

    /// Records a grant for `scope` at the current instant.
    func record(_ scope: LimitScope) {
        state.withLock { state in
            let instant = state.instant
            var list = state.grants[scope, default: []]
            // Cases arrive in time order; an out-of-order one is inserted in place.
            if let last = list.last, last > instant {
                list.insert(instant, at: Self.firstIndex(in: list, notBefore: instant + 1))
            } else {
                list.append(instant)
            }
            state.grants[scope] = list
        }
    }

    func grantedCount(_ scope: LimitScope, window: Int64, now: Int64) -> Int {
        state.withLock { state in
            guard let list = state.grants[scope] else { return 0 }
            let end = Self.firstIndex(in: list, notBefore: state.instant + 1)
            let start = Self.firstIndex(in: list, notBefore: state.instant - window)
            return end - start
        }
    }

    /// The index of the first element of the sorted `list` that is ≥ `value`.
    private static func firstIndex(in list: [Int64], notBefore value: Int64) -> Int {
        var low = 0
        var high = list.count
        while low < high {
            let middle = (low + high) / 2
            if list[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
