/// Get Performance Test Results (`GET /inApps/v1/messaging/performanceTest/result/{requestId}`):
/// the test's parameters, the URL it called, `PENDING`/`PASS`/`FAIL`, the success rate (percent),
/// requests still pending, response times, and failures counted by reason (``SendAttemptResult``
/// raw values, kept as sent).
public struct PerformanceTestResultResponse: Codable, Hashable, Sendable {
    public var config: PerformanceTestConfig?
    public var target: String?
    public var result: PerformanceTestStatus?
    public var successRate: Int?
    public var numPending: Int?
    public var responseTimes: PerformanceTestResponseTimes?
    public var failures: [String: Int]?

    public init(config: PerformanceTestConfig?, target: String?, result: PerformanceTestStatus?, successRate: Int?,
                numPending: Int?, responseTimes: PerformanceTestResponseTimes?, failures: [String: Int]?) {
        self.config = config
        self.target = target
        self.result = result
        self.successRate = successRate
        self.numPending = numPending
        self.responseTimes = responseTimes
        self.failures = failures
    }
}
