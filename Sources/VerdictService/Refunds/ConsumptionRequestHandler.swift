import AppStoreServer
import Foundation
import Logging
import VerdictStorage

/// Decides every `CONSUMPTION_REQUEST` (``RefundDecider``) and stores the record with its
/// submission job. Idempotent: a re-run job finds the stored record. A request for a purchase
/// whose answer is pending or sent joins that answer instead of sending another. While no rule
/// bundle is loaded the notification waits for one (its deadline still counts); facts that do
/// not fit the bundle fail the notification visibly.
///
/// **Time for the app to answer.** First a `consumption.requested` webhook tells the app backend
/// (once per notification); then the decision waits `grace` after the notification arrived — put
/// back without using attempts, and never closer than ``graceMargin`` to Apple's deadline — so
/// facts the backend reports meanwhile are used. Facts reported with `"final": true` end the wait
/// (the facts route wakes the job).
///
/// A request about a group member's `ASSIGNED` transaction has nothing to wait for: Apple accepts
/// no answer about it. It sends no webhook and is decided at once, as not applicable
/// (``RefundDecider/assignedTransactionGuard``).
struct ConsumptionRequestHandler: NotificationHandler {
    /// The wait never reaches closer than this to Apple's 12-hour deadline.
    static let graceMargin: Int64 = 3_600_000
    /// How often a waiting request looks again when nothing wakes it.
    static let gracePollMilliseconds: Int64 = 5_000

    let decider: RefundDecider
    /// Where the `consumption.requested` event is enqueued and the app's facts are looked up.
    let repository: any JobStore & TransactionFactStore
    /// Milliseconds to wait for the app backend's facts (0: decide at once).
    let grace: Int64
    /// Whether `consumption.requested` events are sent.
    let webhooks: Bool

    let name = "refunds"
    let notificationTypes: Set<NotificationTypeV2> = [.consumptionRequest]

    /// Every refund request is decided on the customer's history.
    func decidesOnHistory(_ notification: ProcessedNotification) -> Bool { true }

    func handle(_ notification: ProcessedNotification, logger: Logger) async throws -> String? {
        try await giveTheAppTime(notification)
        let result: ConsumptionRequestInsertResult
        do {
            result = try await decider.decide(notification)
        } catch let failure as RefundDecider.Failure {
            switch failure {
            case .noRules:
                throw JobFailure.waiting(delayMilliseconds: 60_000, failure.description)
            case .noPurchase:
                logger.warning("no refund decision", metadata: ["reason": .string(failure.description)])
                return "not decided: \(failure.description)"
            case .invalidFacts:
                // A refund request must not vanish quietly: the notification fails, visibly
                // (`GET /v1/jobs?state=dead`, metrics), and can be replayed after a fix.
                throw JobFailure.permanent(failure.description)
            }
        }
        let record = result.record
        let outcome: String
        switch result {
        case .inserted: outcome = "decided"
        case .alreadyDecided: outcome = "already decided"
        case .repeated: outcome = "repeat of an answered request"
        }
        logger.info("refund request \(outcome)", metadata: [
            "request_id": .string(record.id), "rule": .string(record.ruleId ?? record.blockedBy ?? "default"),
            "state": .string(record.state.rawValue),
        ])
        let fields: [String: JSONValue] = [
            "requestId": .string(record.id), "outcome": .string(outcome), "state": .string(record.state.rawValue),
        ]
        return String(decoding: try JSONEncoder.service.encode(JSONValue.object(fields)), as: UTF8.self)
    }

    /// Sends `consumption.requested` (once, also without a grace period), then returns when the
    /// grace period is over or the app's facts are final; otherwise throws
    /// ``JobFailure/waiting(delayMilliseconds:_:)``.
    private func giveTheAppTime(_ notification: ProcessedNotification) async throws {
        guard let purchase = notification.content.transaction, let transactionId = purchase.transactionId,
              purchase.inAppOwnershipType != .assigned
        else { return }
        let stored = notification.record.notification
        let deadline = stored.signedDate + RefundDecider.answerWindowMilliseconds
        let decidesAt = min(stored.receivedAt + grace, deadline - Self.graceMargin)
        let now = decider.now().appStoreMilliseconds
        if webhooks {
            let body = WebhookEvent.consumptionRequested(
                notificationUUID: stored.notificationUUID, transactionId: transactionId,
                originalTransactionId: purchase.originalTransactionId, appAccountToken: purchase.appAccountToken?.uuidString.lowercased(),
                productId: purchase.productId, reason: notification.content.payload.data?.consumptionRequestReason?.rawValue,
                deadline: deadline, decidesAt: decidesAt, at: now)
            // A retry of this job finds the event already queued under its key: enqueued once either way.
            _ = try await repository.enqueue(WebhookEvent.job(body: body, key: "consumption.requested:\(stored.notificationUUID)", at: now))
        }
        guard grace > 0, now < decidesAt, try await repository.transactionFacts(transactionId: transactionId)?.finalAt == nil else { return }
        throw JobFailure.waiting(
            delayMilliseconds: min(decidesAt - now, Self.gracePollMilliseconds),
            "waiting until \(decidesAt) (UNIX ms) for the app backend's facts about transaction \(transactionId)")
    }
}
