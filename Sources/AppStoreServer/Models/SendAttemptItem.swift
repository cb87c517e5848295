import Foundation

/// One attempt to deliver a notification to your server.
public struct SendAttemptItem: Codable, Hashable, Sendable {
    /// When Apple attempted the delivery (ms on the wire).
    public var attemptDate: Date?
    public var sendAttemptResult: SendAttemptResult?

    public init(attemptDate: Date? = nil, sendAttemptResult: SendAttemptResult? = nil) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
    }
}
