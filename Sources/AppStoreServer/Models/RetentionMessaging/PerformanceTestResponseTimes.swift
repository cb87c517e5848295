/// Response times measured by a performance test, in milliseconds.
public struct PerformanceTestResponseTimes: Codable, Hashable, Sendable {
    public var average: Int64?
    public var p50: Int64?
    public var p90: Int64?
    public var p95: Int64?
    public var p99: Int64?

    public init(average: Int64?, p50: Int64?, p90: Int64?, p95: Int64?, p99: Int64?) {
        self.average = average
        self.p50 = p50
        self.p90 = p90
        self.p95 = p95
        self.p99 = p99
    }
}
