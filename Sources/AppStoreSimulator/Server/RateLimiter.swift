import Foundation
import Synchronization

/// A request budget: at most `limit` requests per `windowSeconds`.
public struct RateLimit: Sendable, Hashable, Codable {
    /// Requests allowed per window.
    public var limit: Int
    /// Window length in (simulated) seconds; Apple enforces its per-second limits per hour.
    public var windowSeconds: TimeInterval

    /// A budget of `limit` requests per `windowSeconds`.
    public init(limit: Int, windowSeconds: TimeInterval = 3600) {
        self.limit = limit
        self.windowSeconds = windowSeconds
    }

    /// Apple's documented production limit for `endpoint` (requests per second × 3600 per hour),
    /// or 10 % of it for Sandbox.
    public static func apple(_ endpoint: SimulatorEndpoint, sandbox: Bool) -> RateLimit {
        let perHour = endpoint.appleRequestsPerSecond * 3600
        return RateLimit(limit: sandbox ? perHour / 10 : perHour, windowSeconds: 3600)
    }
}

/// Per-endpoint fixed-window rate limiting in simulated time. Over the limit the API answers 429
/// with `Retry-After` = the UNIX time in milliseconds when the window ends.
public final class RateLimiter: Sendable {
    private struct Window {
        var start: Date
        var count: Int
    }

    private struct State {
        var limits: [SimulatorEndpoint: RateLimit] = [:]
        var windows: [SimulatorEndpoint: Window] = [:]
    }

    private let state = Mutex(State())

    /// A limiter without limits.
    public init() {}

    /// Sets (nil: removes) the limit of `endpoint` and starts a fresh window.
    public func setLimit(_ limit: RateLimit?, for endpoint: SimulatorEndpoint) {
        state.withLock {
            $0.limits[endpoint] = limit
            $0.windows[endpoint] = nil
        }
    }

    /// Removes every limit.
    public func removeAll() {
        state.withLock { $0 = State() }
    }

    /// The limits in force.
    public var limits: [SimulatorEndpoint: RateLimit] { state.withLock { $0.limits } }

    /// Counts a request at `now`; returns nil when it is admitted, else when the window ends.
    func admit(_ endpoint: SimulatorEndpoint, now: Date) -> Date? {
        state.withLock { state in
            guard let limit = state.limits[endpoint] else { return nil }
            var window = state.windows[endpoint] ?? Window(start: now, count: 0)
            let end = window.start.addingTimeInterval(limit.windowSeconds)
            if now >= end || now < window.start {
                window = Window(start: now, count: 0)
            }
            guard window.count < limit.limit else {
                return window.start.addingTimeInterval(limit.windowSeconds)
            }
            window.count += 1
            state.windows[endpoint] = window
            return nil
        }
    }
}
