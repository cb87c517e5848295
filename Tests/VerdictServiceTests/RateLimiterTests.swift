import Testing

@testable import VerdictService

/// The token buckets behind the 429s, on a clock the test moves: a burst at once, then the rate.
@Suite struct RateLimiterTests {
    @Test func aBurstThenTheRateWithTheWaitRoundedUp() throws {
        let limiter = RateLimiter(rate: 2, burst: 3)
        let start = ContinuousClock.now
        for _ in 0..<3 { try limiter.take("a", now: start) }
        #expect(throws: RateLimiter.Refusal(retryAfterSeconds: 1)) { try limiter.take("a", now: start) }
        // Another key has its own bucket.
        try limiter.take("b", now: start)
        // Half a second later one request (rate 2/s) is back, and only one.
        try limiter.take("a", now: start + .milliseconds(500))
        #expect(throws: RateLimiter.Refusal.self) { try limiter.take("a", now: start + .milliseconds(500)) }
        // Idle for a minute: a full burst again, never more.
        for _ in 0..<3 { try limiter.take("a", now: start + .seconds(60)) }
        #expect(throws: RateLimiter.Refusal.self) { try limiter.take("a", now: start + .seconds(60)) }
    }

    @Test func aSlowRateTellsTheWholeWait() throws {
        let limiter = RateLimiter(rate: 0.1, burst: 1)
        let start = ContinuousClock.now
        try limiter.take("k", now: start)
        #expect(throws: RateLimiter.Refusal(retryAfterSeconds: 10)) { try limiter.take("k", now: start) }
        #expect(throws: RateLimiter.Refusal(retryAfterSeconds: 5)) { try limiter.take("k", now: start + .seconds(5)) }
    }
}
