import Foundation
import Synchronization

/// Per-key token buckets: each key (an API token's digest, a console session's digest) may make
/// `burst` requests at once and `rate` per second on average. A request over the limit is told
/// how long to wait. Keys idle for a minute are forgotten, and at most ``maximumKeys`` are kept
/// (the oldest go first), so the limiter's memory stays bounded whatever the traffic.
final class RateLimiter: Sendable {
    /// A refusal: the whole seconds to wait before the next request is allowed (at least 1).
    struct Refusal: Error, Equatable {
        var retryAfterSeconds: Int
    }

    static let maximumKeys = 10_000

    private struct Bucket {
        var tokens: Double
        var updatedAt: ContinuousClock.Instant
    }

    let rate: Double
    let burst: Double
    private let buckets = Mutex<[String: Bucket]>([:])

    /// `rate` requests per second on average, `burst` at once (at least 1).
    init(rate: Double, burst: Int) {
        self.rate = rate
        self.burst = Double(max(1, burst))
    }

    /// Takes one request for `key`, or throws how long to wait.
    func take(_ key: String, now: ContinuousClock.Instant = .now) throws(Refusal) {
        let wait: Double? = buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updatedAt: now)
            let since = now - bucket.updatedAt
            let elapsed = max(0, Double(since.components.seconds) + Double(since.components.attoseconds) / 1e18)
            bucket.tokens = min(burst, bucket.tokens + elapsed * rate)
            bucket.updatedAt = now
            defer {
                buckets[key] = bucket
                if buckets.count > Self.maximumKeys { Self.prune(&buckets, now: now) }
            }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / rate }
            bucket.tokens -= 1
            return nil
        }
        if let wait { throw Refusal(retryAfterSeconds: max(1, Int(wait.rounded(.up)))) }
    }

    /// Forgets keys idle for a minute (a full bucket again), then the oldest beyond the cap.
    private static func prune(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant) {
        buckets = buckets.filter { now - $0.value.updatedAt < .seconds(60) }
        guard buckets.count > maximumKeys else { return }
        let oldest = buckets.sorted { $0.value.updatedAt < $1.value.updatedAt }.prefix(buckets.count - maximumKeys)
        for (key, _) in oldest { buckets[key] = nil }
    }
}
