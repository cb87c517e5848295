import Foundation
import Synchronization

/// A fault the simulated App Store injects into API requests: an error answer (optionally with a
/// `Retry-After` header, as for a rate limit), added latency or a dropped connection, for the next
/// `count` requests to `endpoint` (nil: every endpoint; nil count: until cleared).
public struct SimulatorFault: Sendable, Hashable, Codable {
    /// What happens to an affected request.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Answer with `status` and, when `errorCode` is set, an Apple error body; with
        /// `retryAfterMilliseconds`, also a `Retry-After` header.
        case error
        /// Delay the request by `latencyMilliseconds`, then handle it normally.
        case latency
        /// Close the connection without answering.
        case dropConnection
    }

    /// What happens.
    public var kind: Kind
    /// Which endpoint; nil means every endpoint.
    public var endpoint: SimulatorEndpoint?
    /// How many requests are affected; nil means until cleared.
    public var count: Int?
    /// HTTP status of an `error` fault.
    public var status: Int?
    /// `errorCode` of an `error` fault's body; nil sends no body.
    public var errorCode: Int64?
    /// `errorMessage` of an `error` fault's body.
    public var errorMessage: String?
    /// Delay of a `latency` fault.
    public var latencyMilliseconds: Int?
    /// For an `error` fault: send `Retry-After` with the UNIX time in milliseconds this many
    /// milliseconds after the wall-clock now (as Apple does with 429); nil sends no header.
    public var retryAfterMilliseconds: Int?

    /// A fault; prefer the static constructors.
    public init(kind: Kind, endpoint: SimulatorEndpoint? = nil, count: Int? = 1, status: Int? = nil,
                errorCode: Int64? = nil, errorMessage: String? = nil, latencyMilliseconds: Int? = nil,
                retryAfterMilliseconds: Int? = nil) {
        self.kind = kind
        self.endpoint = endpoint
        self.count = count
        self.status = status
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.latencyMilliseconds = latencyMilliseconds
        self.retryAfterMilliseconds = retryAfterMilliseconds
    }

    /// 500 `{"errorCode":5000001,"errorMessage":"An unknown error occurred. Please try again."}` (retryable).
    public static func generalInternalRetryable(_ endpoint: SimulatorEndpoint? = nil, count: Int? = 1) -> Self {
        .error(status: 500, errorCode: 5_000_001, errorMessage: "An unknown error occurred. Please try again.",
               endpoint: endpoint, count: count)
    }

    /// 500 `{"errorCode":5000000,"errorMessage":"An unknown error occurred."}`.
    public static func generalInternal(_ endpoint: SimulatorEndpoint? = nil, count: Int? = 1) -> Self {
        .error(status: 500, errorCode: 5_000_000, errorMessage: "An unknown error occurred.",
               endpoint: endpoint, count: count)
    }

    /// 503 without a body.
    public static func serviceUnavailable(_ endpoint: SimulatorEndpoint? = nil, count: Int? = 1) -> Self {
        .error(status: 503, errorCode: nil, errorMessage: nil, endpoint: endpoint, count: count)
    }

    /// 429 `{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}` with `Retry-After` the UNIX
    /// time in milliseconds `retryAfterMilliseconds` after the wall-clock now.
    public static func rateLimited(retryAfterMilliseconds: Int, endpoint: SimulatorEndpoint? = nil,
                                   count: Int? = 1) -> Self {
        SimulatorFault(kind: .error, endpoint: endpoint, count: count, status: 429, errorCode: 4_290_000,
                       errorMessage: "Rate limit exceeded.", retryAfterMilliseconds: retryAfterMilliseconds)
    }

    /// Any canned answer, e.g. `.error(status: 400, errorCode: 9990000, errorMessage: "Testing error.")`.
    public static func error(status: Int, errorCode: Int64?, errorMessage: String?,
                             endpoint: SimulatorEndpoint? = nil, count: Int? = 1) -> Self {
        SimulatorFault(kind: .error, endpoint: endpoint, count: count, status: status, errorCode: errorCode,
                       errorMessage: errorMessage)
    }

    /// Adds `milliseconds` of latency.
    public static func latency(milliseconds: Int, endpoint: SimulatorEndpoint? = nil, count: Int? = 1) -> Self {
        SimulatorFault(kind: .latency, endpoint: endpoint, count: count, latencyMilliseconds: milliseconds)
    }

    /// Closes the connection without answering.
    public static func dropConnection(_ endpoint: SimulatorEndpoint? = nil, count: Int? = 1) -> Self {
        SimulatorFault(kind: .dropConnection, endpoint: endpoint, count: count)
    }

    func applies(to requested: SimulatorEndpoint) -> Bool {
        (endpoint == nil || endpoint == requested) && (count ?? 1) > 0
    }
}

/// The faults in force, consumed request by request.
public final class FaultInjector: Sendable {
    /// What to do with one request.
    struct Plan: Equatable {
        var latencyMilliseconds = 0
        var action: SimulatorFault?
    }

    private let faults = Mutex<[SimulatorFault]>([])

    /// An injector without faults.
    public init() {}

    /// Adds a fault (after the ones already queued).
    public func add(_ fault: SimulatorFault) {
        faults.withLock { $0.append(fault) }
    }

    /// Removes every fault.
    public func removeAll() {
        faults.withLock { $0.removeAll() }
    }

    /// The faults still in force.
    public var pending: [SimulatorFault] { faults.withLock { $0 } }

    /// Consumes the faults that apply to one request to `endpoint`: all matching latencies and the
    /// first matching error or dropped connection.
    func plan(for endpoint: SimulatorEndpoint) -> Plan {
        faults.withLock { faults in
            var plan = Plan()
            for index in faults.indices where faults[index].applies(to: endpoint) {
                switch faults[index].kind {
                case .latency:
                    plan.latencyMilliseconds += faults[index].latencyMilliseconds ?? 0
                case .error, .dropConnection:
                    guard plan.action == nil else { continue }
                    plan.action = faults[index]
                }
                if let count = faults[index].count { faults[index].count = count - 1 }
            }
            faults.removeAll { ($0.count ?? 1) <= 0 }
            return plan
        }
    }
}
