import AppStoreServer
import Foundation
import Logging
import VerdictStorage

/// Joins Apple's answer to a refund request to its record: `REFUND` (with the transaction's
/// `revocationType`, `revocationPercentage` and `revocationReason`), `REFUND_DECLINED` and
/// `REFUND_REVERSED`. A purchase Verdict never saw a request for is left alone.
///
/// A `REFUND` with subtype `SEATS` took back only some seats of a multiseat purchase, which stays
/// valid: it is joined as its own outcome, `REFUND_SEATS` (with `revokedSeatQuantity`), never as
/// the refund granted. A transaction revoked with `ASSIGNMENT_REVOKE` (the group purchaser took
/// the subscription away from a member) was not refunded: it is not joined.
struct RefundOutcomeHandler: NotificationHandler {
    /// The outcome a seat refund is recorded as.
    static let seatRefundOutcome = "REFUND_SEATS"

    let repository: any ConsumptionRequestStore

    let name = "refund-outcomes"
    let notificationTypes: Set<NotificationTypeV2> = [.refund, .refundDeclined, .refundReversed]

    func handle(_ notification: ProcessedNotification, logger: Logger) async throws -> String? {
        let stored = notification.record.notification
        guard let transaction = notification.content.transaction, let transactionId = transaction.transactionId else {
            return "no transaction"
        }
        guard transaction.revocationType != .assignmentRevoke else {
            return "not a refund: the purchaser revoked a member's assignment (ASSIGNMENT_REVOKE)"
        }
        let seats = notification.event.type == .refund && notification.event.subtype == .seats
        var detail: [String: JSONValue] = [:]
        detail["revocationType"] = transaction.revocationType.map { .string($0.rawValue) }
        detail["revocationPercentage"] = transaction.revocationPercentage.map { .integer(Int64($0)) }
        detail["revocationReason"] = transaction.revocationReason.map { .integer(Int64($0.rawValue)) }
        detail["revocationDate"] = transaction.revocationDate.map { .integer($0.appStoreMilliseconds) }
        if seats { detail["revokedSeatQuantity"] = transaction.resolvedRevokedSeatQuantity.map { .integer(Int64($0)) } }
        let joined = try await repository.recordConsumptionOutcome(
            transactionId: transactionId, outcome: seats ? Self.seatRefundOutcome : stored.notificationType,
            detail: String(decoding: try JSONEncoder.service.encode(JSONValue.object(detail)), as: UTF8.self),
            notificationUUID: stored.notificationUUID, at: stored.signedDate)
        return joined ? "joined to the refund request" : "no refund request for this purchase"
    }
}
