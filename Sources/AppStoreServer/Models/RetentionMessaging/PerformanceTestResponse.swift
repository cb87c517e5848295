/// Initiate Performance Test's answer: the test's parameters and its id for Get Performance Test Results.
public struct PerformanceTestResponse: Codable, Hashable, Sendable {
    public var config: PerformanceTestConfig?
    public var requestId: String?

    public init(config: PerformanceTestConfig?, requestId: String?) {
        self.config = config
        self.requestId = requestId
    }
}
