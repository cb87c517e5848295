import AppStoreServer
import Foundation
import Logging
import VerdictStorage

/// The `send-consumption` job: sends one pending consumption request's stored body with Send
/// Consumption Information, on the host of the notification's environment, and records every
/// attempt. 202 → `sent`. 429 → retried at Apple's `Retry-After`; 5xx, Apple's retryable codes
/// and network failures → retried with backoff and jitter; any other answer → `failed` with
/// Apple's code and message. The deadline (signedDate + 12 h) bounds everything: a retry that
/// would land after it gets one last try just before it when possible, else the request is
/// `missed`. Without API credentials the job waits in the queue (not lost) until the deadline.
///
/// **Never about a member's transaction.** Apple refuses consumption information about a group
/// member's `ASSIGNED` transaction (4000227). The decider never enqueues one; the job checks again
/// before each call (a job queued by an older version, a record corrected since) and moves such a
/// request to `not_sent` without calling Apple. Should Apple answer 4000227 anyway, the request
/// fails permanently with a message that says why, and is not retried.
///
/// Apple offers no idempotency key. Each call is marked in flight before it is made; a process
/// that stops after Apple received the body and before the answer was recorded leaves the mark,
/// and the next run records that attempt as `outcome unknown`, counts it
/// (`result="outcome_unknown"`), logs a warning and notes on its own attempt that it may repeat
/// one Apple already has. A repeat is thus rare (a crash inside one HTTP call) and always visible.
public struct ConsumptionSubmissionJob: JobHandler {
    public static let kind = "send-consumption"
    public var kind: String { Self.kind }
    /// How long before the deadline the last try is made when backoff would overshoot it.
    static let lastTryMargin: Int64 = 60_000

    /// The stores the job reads and writes: the request, and the stored purchase it is about.
    public typealias Stores = ConsumptionRequestStore & TransactionStore

    let repository: any Stores
    let appStore: AppStoreAPIAccess
    let metrics: ServiceMetrics
    let backoff: RetryBackoff
    let now: @Sendable () -> Date

    public init(repository: any Stores, appStore: AppStoreAPIAccess, metrics: ServiceMetrics,
                backoff: RetryBackoff = RetryBackoff(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.repository = repository
        self.appStore = appStore
        self.metrics = metrics
        self.backoff = backoff
        self.now = now
    }

    struct Payload: Codable {
        var requestId: String
        var transactionId: String
    }

    /// The submission job of a request: ordered by its deadline; at most one per purchase.
    public static func job(requestId: String, transactionId: String, deadline: Int64, at: Int64) -> NewJob {
        let json = (try? JSONEncoder.service.encode(Payload(requestId: requestId, transactionId: transactionId)))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return NewJob(kind: kind, payload: json, dedupeKey: "\(kind):\(transactionId)", runAt: at, deadline: deadline,
                      maxAttempts: 1_000, createdAt: at, traceParent: TraceParent.current())
    }

    public func run(_ job: JobRecord, logger: Logger) async throws -> String? {
        guard let payload = try? JSONDecoder().decode(Payload.self, from: Data(job.job.payload.utf8)) else {
            throw JobFailure.permanent("the job payload is not a send-consumption payload")
        }
        guard let record = try await repository.consumptionRequest(id: payload.requestId) else {
            throw JobFailure.permanent("no consumption request \(payload.requestId)")
        }
        guard record.state == .pending else { return Self.result(record.state) }
        let interrupted = try await repository.resolveInterruptedConsumptionAttempt(id: record.id)
        if let interrupted {
            metrics.consumptionSubmission(result: "outcome_unknown")
            logger.warning("a previous consumption submission was interrupted during the call: Apple may receive this body twice",
                           metadata: ["request_id": .string(record.id), "attempt": "\(interrupted.attempt)"])
        }
        let started = now().appStoreMilliseconds
        guard started < record.deadline else {
            return try await finish(record, .missed, attempt: nil, "the deadline passed before Apple accepted an answer", at: started)
        }
        guard try await !isAssigned(record.transactionId) else {
            logger.warning("consumption information not sent: member's ASSIGNED transaction", metadata: ["request_id": .string(record.id)])
            return try await finish(record, .notSent, attempt: nil, "not sent: " + RefundDecider.assignedTransactionReason, at: started)
        }
        guard let body = record.body,
              let request = try? AppStoreJSON.decoder().decode(ConsumptionRequest.self, from: Data(body.utf8))
        else {
            return try await finish(record, .failed, attempt: nil, "the stored body cannot be read", at: started)
        }
        let client = try appStore.client(for: record.environment.map(AppStoreEnvironment.init(rawValue:)))
        let number = try await repository.consumptionAttempts(requestId: record.id).count + 1
        guard try await repository.markConsumptionAttemptInFlight(id: record.id, attempt: number, at: started) else {
            return Self.result(try await repository.consumptionRequest(id: record.id)?.state ?? .failed)
        }
        do {
            try await client.sendConsumptionInformation(transactionId: record.transactionId, request: request)
        } catch {
            return try await failed(record, error, attempt: number, at: started, logger: logger)
        }
        let repeatNote = interrupted.map { "may repeat attempt \($0.attempt), whose outcome is unknown" }
        let attempt = ConsumptionAttemptRecord(
            attempt: number, at: started, httpStatus: 202, errorCode: nil, errorMessage: repeatNote, result: .sent, retryAt: nil)
        logger.info("consumption information sent", metadata: ["request_id": .string(record.id)])
        return try await finish(record, .sent, attempt: attempt, nil, at: started)
    }

    /// Records a failed call: a retry (clamped to the deadline), a permanent failure, or a miss.
    private func failed(_ record: ConsumptionRequestRecord, _ failure: AppStoreAPIFailure, attempt number: Int, at: Int64,
                        logger: Logger) async throws -> String? {
        func attempt(_ result: ConsumptionAttemptRecord.Result, retryAt: Int64?) -> ConsumptionAttemptRecord {
            ConsumptionAttemptRecord(
                attempt: number, at: at, httpStatus: failure.httpStatus, errorCode: failure.rawErrorCode,
                errorMessage: failure.errorMessage ?? failure.detail, result: result, retryAt: retryAt)
        }
        guard failure.isRetryable else {
            logger.warning("consumption information refused", metadata: ["error": .string(failure.description)])
            return try await finish(record, .failed, attempt: attempt(.failed, retryAt: nil), Self.refusal(failure), at: at)
        }
        var retryAt = max(failure.retryAfter?.appStoreMilliseconds ?? at + backoff.delay(afterAttempts: number), at)
        if retryAt >= record.deadline {
            let lastTry = record.deadline - Self.lastTryMargin
            guard failure.retryAfter == nil, lastTry > at else {
                return try await finish(record, .missed, attempt: attempt(.missed, retryAt: nil), failure.description, at: at)
            }
            retryAt = lastTry
        }
        try await repository.updateConsumptionSubmission(
            id: record.id, state: .pending, attempt: attempt(.retry, retryAt: retryAt), lastError: failure.description, at: at)
        metrics.consumptionSubmission(result: "retry")
        throw JobFailure.retry(at: retryAt, failure.description)
    }

    /// Moves the request to its final `state` and ends the job.
    private func finish(_ record: ConsumptionRequestRecord, _ state: ConsumptionRequestRecord.State,
                        attempt: ConsumptionAttemptRecord?, _ error: String?, at: Int64) async throws -> String? {
        if try await repository.updateConsumptionSubmission(id: record.id, state: state, attempt: attempt, lastError: error, at: at) {
            metrics.consumptionSubmission(result: state.rawValue)
        }
        return Self.result(state)
    }

    static func result(_ state: ConsumptionRequestRecord.State) -> String { #"{"state":"\#(state.rawValue)"}"# }

    /// Whether the stored purchase is a group member's `ASSIGNED` transaction (a purchase not
    /// stored, or stored unreadably, is not known to be one).
    private func isAssigned(_ transactionId: String) async throws -> Bool {
        guard let stored = try await repository.transaction(id: transactionId) else { return false }
        return (try? stored.payload())?.inAppOwnershipType == .assigned
    }

    /// The last error of a permanent refusal: Apple's answer, said plainly when it is 4000227.
    static func refusal(_ failure: AppStoreAPIFailure) -> String {
        guard failure.apiError == .invalidAssignedTransactionNotSupported else { return failure.description }
        return "Apple refuses consumption information about a group member's ASSIGNED transaction (4000227); "
            + "not retried: \(failure.description)"
    }
}
