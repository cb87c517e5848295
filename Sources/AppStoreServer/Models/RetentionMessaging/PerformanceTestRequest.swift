/// Initiate Performance Test (`POST /inApps/v1/messaging/performanceTest`, Sandbox only): the
/// original transaction id of a Sandbox subscription the test's requests name.
public struct PerformanceTestRequest: Codable, Hashable, Sendable {
    public var originalTransactionId: String

    public init(originalTransactionId: String) {
        self.originalTransactionId = originalTransactionId
    }
}
