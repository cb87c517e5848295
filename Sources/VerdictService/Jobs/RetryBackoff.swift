/// Exponential backoff with full jitter for failed jobs: attempt n waits a random time in
/// [base·2ⁿ⁻¹ / 2, base·2ⁿ⁻¹], capped at `maximum`.
public struct RetryBackoff: Sendable {
    public var baseMilliseconds: Int64
    public var maximumMilliseconds: Int64

    public init(baseMilliseconds: Int64 = 1_000, maximumMilliseconds: Int64 = 3_600_000) {
        self.baseMilliseconds = baseMilliseconds
        self.maximumMilliseconds = maximumMilliseconds
    }

    /// The delay before the attempt after `attempts` failed ones.
    public func delay(afterAttempts attempts: Int) -> Int64 {
        let exponent = min(max(attempts - 1, 0), 30)
        let ceiling = min(baseMilliseconds << Int64(exponent), maximumMilliseconds)
        return Int64.random(in: max(ceiling / 2, 1)...max(ceiling, 1))
    }
}
