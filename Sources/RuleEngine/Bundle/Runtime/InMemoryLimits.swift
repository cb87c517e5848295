import Synchronization

/// A `LimitsPort` kept in memory: fixed counts (as a test states them) plus grants recorded with
/// their instant, counted inside the asked window. Thread-safe.
public final class InMemoryLimits: LimitsPort {
    private struct State {
        var fixed: [LimitScope: Int] = [:]
        var grants: [LimitScope: [Int64]] = [:]
    }

    private let state: Mutex<State>

    /// A store whose counts start at `fixed` (e.g. `[.offer("promo-annual-50"): 500]`): fixed
    /// counts apply to every window.
    public init(fixed: [LimitScope: Int] = [:]) {
        state = Mutex(State(fixed: fixed))
    }

    /// Records one grant for `scope` at `instant` (milliseconds since 1970).
    public func record(_ scope: LimitScope, at instant: Int64) {
        state.withLock { $0.grants[scope, default: []].append(instant) }
    }

    /// Records a granted offer: one grant for the customer and one for the offer.
    public func recordOffer(_ offerId: String, customer: String, at instant: Int64) {
        record(.customer(customer), at: instant)
        record(.offer(offerId), at: instant)
    }

    public func grantedCount(_ scope: LimitScope, window: Int64, now: Int64) -> Int {
        state.withLock { state in
            let recent = state.grants[scope]?.count { $0 <= now && $0 >= now - window } ?? 0
            return (state.fixed[scope] ?? 0) + recent
        }
    }
}
