import AppStoreServer
import Foundation
import Logging
import VerdictStorage

/// Runs an offer decision for retention-relevant notifications (the bundle's `appliesTo` has the
/// last word): auto-renew turned off, expiry, failed renewals, price increases, plan changes.
/// Idempotent: a notification is decided once (a re-run job finds the stored decision).
struct OfferNotificationHandler: NotificationHandler {
    let decider: OfferDecider

    let name = "offers"
    let notificationTypes: Set<String> = [
        "DID_CHANGE_RENEWAL_STATUS", "EXPIRED", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "PRICE_INCREASE",
        "DID_CHANGE_RENEWAL_PREF",
    ]

    func handle(_ notification: ProcessedNotification, logger: Logger) async throws -> String? {
        let stored = notification.record.notification
        guard let originalTransactionId = notification.content.originalTransactionId else { return "no subscription" }
        let event = SubscriptionFacts.Event(
            type: NotificationTypeV2(rawValue: stored.notificationType), subtype: stored.subtype.map(Subtype.init(rawValue:)),
            environment: stored.environment.map(AppStoreEnvironment.init(rawValue:)),
            signedDate: Date(appStoreMilliseconds: stored.signedDate))
        let decision: OfferDecisionRecord?
        do {
            decision = try await decider.decide(
                originalTransactionId: originalTransactionId, event: event, notificationUUID: stored.notificationUUID,
                trigger: stored.subtype ?? stored.notificationType)
        } catch let failure as OfferDecider.Failure {
            // Missing rules may come back (retry); facts that do not fit will not.
            if failure == .noRules { throw JobFailure.waiting(delayMilliseconds: 60_000, failure.description) }
            throw JobFailure.permanent(failure.description)
        }
        guard let decision else { return "not applicable" }
        var fields: [String: JSONValue] = ["decisionId": .string(decision.id), "heldOut": .bool(decision.heldOut)]
        fields["offerId"] = decision.offerId.map(JSONValue.string)
        fields["ruleId"] = decision.ruleId.map(JSONValue.string)
        logger.info("offer decided", metadata: [
            "decision_id": .string(decision.id), "offer": .string(decision.offerId ?? "none"),
            "rule": .string(decision.ruleId ?? "none"), "held_out": .stringConvertible(decision.heldOut),
        ])
        return String(decoding: try JSONEncoder.service.encode(JSONValue.object(fields)), as: UTF8.self)
    }
}
