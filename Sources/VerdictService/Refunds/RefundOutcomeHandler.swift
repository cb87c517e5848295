import AppStoreServer
import Foundation
import Logging
import VerdictStorage

/// Joins Apple's answer to a refund request to its record: `REFUND` (with the transaction's
/// `revocationType`, `revocationPercentage` and `revocationReason`), `REFUND_DECLINED` and
/// `REFUND_REVERSED`. A purchase Verdict never saw a request for is left alone.
struct RefundOutcomeHandler: NotificationHandler {
    let repository: any ConsumptionRequestStore

    let name = "refund-outcomes"
    let notificationTypes: Set<NotificationTypeV2> = [.refund, .refundDeclined, .refundReversed]

    func handle(_ notification: ProcessedNotification, logger: Logger) async throws -> String? {
        let stored = notification.record.notification
        guard let transaction = notification.content.transaction, let transactionId = transaction.transactionId else {
            return "no transaction"
        }
        var detail: [String: JSONValue] = [:]
        detail["revocationType"] = transaction.revocationType.map { .string($0.rawValue) }
        detail["revocationPercentage"] = transaction.revocationPercentage.map { .integer(Int64($0)) }
        detail["revocationReason"] = transaction.revocationReason.map { .integer(Int64($0.rawValue)) }
        detail["revocationDate"] = transaction.revocationDate.map { .integer($0.appStoreMilliseconds) }
        let joined = try await repository.recordConsumptionOutcome(
            transactionId: transactionId, outcome: stored.notificationType,
            detail: String(decoding: try JSONEncoder.service.encode(JSONValue.object(detail)), as: UTF8.self),
            notificationUUID: stored.notificationUUID, at: stored.signedDate)
        return joined ? "joined to the refund request" : "no refund request for this purchase"
    }
}
