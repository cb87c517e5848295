import AppStoreServer
import Foundation

/// One performance test run by the simulator: its parameters, the URL, and each request's outcome.
struct SimulatedPerformanceTest: Sendable {
    /// The parameters the simulator uses (Apple publishes its thresholds in each test's config).
    static let defaultConfig = PerformanceTestConfig(
        maxConcurrentRequests: 5, totalRequests: 50, totalDuration: 60_000, responseTimeThreshold: 700, successRateThreshold: 90)

    var config: PerformanceTestConfig
    var target: String
    var originalTransactionId: String
    /// Milliseconds of each answered request, successful or not.
    var responseTimes: [Int64] = []
    var successes = 0
    var failures: [String: Int] = [:]
    var completed = 0

    var total: Int { config.totalRequests ?? 0 }

    /// Apple's result body: PENDING while requests remain; then PASS when the success rate
    /// reaches the threshold.
    var result: PerformanceTestResultResponse {
        let rate = completed == 0 ? 0 : successes * 100 / max(total, 1)
        let done = completed >= total
        let passed = rate >= (config.successRateThreshold ?? 100)
        let sorted = responseTimes.sorted()
        func percentile(_ p: Double) -> Int64? {
            guard !sorted.isEmpty else { return nil }
            return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)]
        }
        let average = sorted.isEmpty ? nil : sorted.reduce(0, +) / Int64(sorted.count)
        return PerformanceTestResultResponse(
            config: config, target: target, result: done ? (passed ? .pass : .fail) : .pending, successRate: rate,
            numPending: total - completed,
            responseTimes: PerformanceTestResponseTimes(
                average: average, p50: percentile(0.5), p90: percentile(0.9), p95: percentile(0.95), p99: percentile(0.99)),
            failures: failures)
    }
}
