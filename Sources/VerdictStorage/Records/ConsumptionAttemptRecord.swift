/// One call to Apple's Send Consumption Information for a consumption request, and what came of it.
/// Codable as the API shows it (`attempts[]` of a consumption record).
public struct ConsumptionAttemptRecord: Sendable, Equatable, Codable {
    /// What the attempt led to.
    public enum Result: String, Sendable, Codable, CaseIterable {
        /// Apple accepted the body (202).
        case sent
        /// A retryable failure (429, 5xx, a retryable error code, no response): tried again at `retryAt`.
        case retry
        /// A permanent failure (another 4xx): not tried again.
        case failed
        /// The retry would land after the deadline: given up.
        case missed
    }

    /// The message of an attempt whose call was interrupted (the process stopped after sending):
    /// Apple may have received the body, so the next attempt may repeat it.
    public static let outcomeUnknown = "outcome unknown: the process stopped during the call; Apple may have received the body"

    /// 1 for the first call.
    public var attempt: Int
    /// When the call was made (UNIX ms).
    public var at: Int64
    /// Apple's HTTP status; nil when no response arrived.
    public var httpStatus: Int?
    /// Apple's `errorCode`, kept raw (codes newer than Verdict included).
    public var errorCode: Int64?
    /// Apple's `errorMessage`, or what went wrong without a response.
    public var errorMessage: String?
    public var result: Result
    /// When the next attempt is scheduled (`retry` only).
    public var retryAt: Int64?

    public init(attempt: Int, at: Int64, httpStatus: Int?, errorCode: Int64?, errorMessage: String?, result: Result, retryAt: Int64?) {
        self.attempt = attempt
        self.at = at
        self.httpStatus = httpStatus
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.result = result
        self.retryAt = retryAt
    }
}
