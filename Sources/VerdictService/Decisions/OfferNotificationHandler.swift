import AppStoreServer
import Foundation
import Logging
import RuleEngine
import VerdictStorage

/// Runs an offer decision for every notification type the active bundle's offers section
/// `appliesTo` accepts (judged on the event first, so other notifications cost no history reads),
/// and for a change of seats (`INCREASE_QUANTITY`, `DECREASE_QUANTITY`) whatever notification type
/// carries it. The decision's trigger is the subtype, else the type. Idempotent: a notification is
/// decided once (a re-run job finds the stored decision).
struct OfferNotificationHandler: NotificationHandler {
    let decider: OfferDecider

    let name = "offers"
    let notificationTypes = Set(NotificationTypeV2.knownValues).subtracting([.test])
    let subtypes: Set<Subtype> = [.increaseQuantity, .decreaseQuantity]
    /// The types whose processing waits while no valid bundle is loaded.
    static let retentionTriggers: Set<NotificationTypeV2> = [.didChangeRenewalStatus, .expired]
    /// The subtypes whose processing waits too: a seat reduction is a retention moment.
    static let retentionSubtypes: Set<Subtype> = [.decreaseQuantity]

    /// A notification the active bundle's offers section may decide on.
    func decidesOnHistory(_ notification: ProcessedNotification) -> Bool {
        guard notification.content.originalTransactionId != nil, let bundle = decider.rules.current, bundle.offers != nil
        else { return false }
        return OfferDecider.mayApply(bundle, notification.event)
    }

    func handle(_ notification: ProcessedNotification, logger: Logger) async throws -> String? {
        let stored = notification.record.notification
        guard let originalTransactionId = notification.content.originalTransactionId else { return "no subscription" }
        let event = notification.event
        let decision: OfferDecisionRecord?
        do {
            decision = try await decider.decide(
                originalTransactionId: originalTransactionId, event: event, notificationUUID: stored.notificationUUID,
                trigger: event.subtype?.rawValue ?? event.type.rawValue, decoded: notification.decoded)
        } catch let failure as OfferDecider.Failure {
            switch failure {
            case .noRules where Self.retentionTriggers.contains(event.type) || event.subtype.map(Self.retentionSubtypes.contains) == true:
                // A retention trigger waits for the rules to come back rather than go undecided.
                throw JobFailure.waiting(delayMilliseconds: 60_000, failure.description)
            case .capsContended:
                // Retried with the queue's backoff: the caps will have settled by then.
                throw failure
            case .noRules, .unknownCustomer, .invalidFacts:
                // Nothing to decide on; the notification itself is processed.
                logger.warning("no offer decision", metadata: ["reason": .string(failure.description)])
                return "not decided: \(failure.description)"
            }
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
