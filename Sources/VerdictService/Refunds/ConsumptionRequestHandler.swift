import AppStoreServer
import Foundation
import Logging
import VerdictStorage

/// Decides every `CONSUMPTION_REQUEST` (``RefundDecider``) and stores the record with its
/// submission job. Idempotent: a re-run job finds the stored record. A request for a purchase
/// whose answer is pending or sent joins that answer instead of sending another. While no rule
/// bundle is loaded the notification waits for one (its deadline still counts); facts that do
/// not fit the bundle fail the notification visibly.
struct ConsumptionRequestHandler: NotificationHandler {
    let decider: RefundDecider

    let name = "refunds"
    let notificationTypes: Set<String> = [NotificationTypeV2.consumptionRequest.rawValue]

    /// Every refund request is decided on the customer's history.
    func decidesOnHistory(_ notification: ProcessedNotification) -> Bool { true }

    func handle(_ notification: ProcessedNotification, logger: Logger) async throws -> String? {
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
}
