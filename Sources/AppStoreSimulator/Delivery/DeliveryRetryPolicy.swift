import AppStoreServer
import Foundation

/// When and how often the simulated App Store retries a notification its receiver did not accept.
///
/// Apple retries V2 notifications five times, 1, 12, 24, 48 and 72 hours after the previous
/// attempt, in Production only; Sandbox notifications are sent once. ``timeScale`` compresses the
/// schedule for tests (`3_600_000` makes an hour last a millisecond).
public struct DeliveryRetryPolicy: Sendable, Hashable, Codable {
    /// Whether failed notifications are retried.
    public enum Mode: String, Sendable, Hashable, Codable {
        /// Retry in Production, send once in Sandbox (Apple's behaviour).
        case followEnvironment
        /// Always retry (e.g. to exercise retries against a Sandbox configuration).
        case always
        /// Never retry.
        case never
    }

    /// Apple's schedule: hours after the previous attempt.
    public static let appleRetryIntervals: [TimeInterval] = [1, 12, 24, 48, 72].map { $0 * 3600 }

    /// Whether to retry.
    public var mode: Mode
    /// Delays between attempts in simulated seconds, each after the previous attempt.
    public var retryIntervals: [TimeInterval]
    /// How many times faster than real time the schedule runs (1 = real time).
    public var timeScale: Double
    /// How long the receiver has to answer one attempt (real seconds) before it counts as `TIMED_OUT`.
    public var requestTimeout: TimeInterval

    /// A policy; the defaults are Apple's.
    public init(mode: Mode = .followEnvironment, retryIntervals: [TimeInterval] = Self.appleRetryIntervals,
                timeScale: Double = 1, requestTimeout: TimeInterval = 30) {
        self.mode = mode
        self.retryIntervals = retryIntervals
        self.timeScale = timeScale > 0 ? timeScale : 1
        self.requestTimeout = requestTimeout
    }

    /// Whether notifications of `environment` are retried under this policy.
    public func retries(in environment: AppStoreEnvironment) -> Bool {
        switch mode {
        case .followEnvironment: environment == .production
        case .always: true
        case .never: false
        }
    }

    /// The real time to wait for a simulated interval.
    func realDelay(forSimulated interval: TimeInterval) -> Duration {
        .nanoseconds(Int64((interval / timeScale * 1_000_000_000).rounded()))
    }
}
