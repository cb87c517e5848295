/// The parameters of Apple's realtime performance test: how many requests, how many at once,
/// over how long, and what counts as a pass.
public struct PerformanceTestConfig: Codable, Hashable, Sendable {
    public var maxConcurrentRequests: Int?
    public var totalRequests: Int?
    /// Milliseconds.
    public var totalDuration: Int64?
    /// Milliseconds an answer may take (about 700 in Sandbox).
    public var responseTimeThreshold: Int64?
    /// Percent of requests that must succeed.
    public var successRateThreshold: Int?

    public init(maxConcurrentRequests: Int?, totalRequests: Int?, totalDuration: Int64?, responseTimeThreshold: Int64?,
                successRateThreshold: Int?) {
        self.maxConcurrentRequests = maxConcurrentRequests
        self.totalRequests = totalRequests
        self.totalDuration = totalDuration
        self.responseTimeThreshold = responseTimeThreshold
        self.successRateThreshold = successRateThreshold
    }
}
