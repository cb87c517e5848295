import AppStoreServer
import Foundation
import RuleEngine
import VerdictStorage

/// An outbound event for `VERDICT_WEBHOOK_URL`, e.g.
/// `{"type":"offer.targeted","id":"…","createdAt":…,"data":{…}}`. The body is fixed when the
/// event is enqueued, so every retry sends the same bytes.
public enum WebhookEvent {
    /// `offer.targeted`: a decision made an offer (not held out). The data names the customer and
    /// the offer; fetch the signatures from `GET /v1/customers/{originalTransactionId}/offer`.
    public static func offerTargeted(_ decision: OfferDecisionRecord, appAccountToken: String?) -> String {
        var offer: [String: JSONValue] = [
            "type": .string(decision.offerType ?? ""), "offerId": .string(decision.offerId ?? ""),
        ]
        offer["productId"] = decision.productId.map(JSONValue.string)
        offer["expiresAt"] = decision.expiresAt.map(JSONValue.integer)
        var data = decisionData(decision, appAccountToken: appAccountToken)
        data["offer"] = .object(offer)
        return encoded(type: "offer.targeted", id: decision.id, at: decision.decidedAt, data: data)
    }

    /// `retention.answered`: a cancel-page decision (Retention Messaging, `REALTIME_REQUEST`) chose
    /// an answer for the App Store — a message, with an offer or an alternate product. The data
    /// names the customer, Apple's request identifier and the answer (the offer without its
    /// signature, which Apple received).
    public static func retentionAnswered(_ decision: OfferDecisionRecord, answer: Decision.Answer, appAccountToken: String?) -> String {
        var shown: [String: JSONValue] = [
            "message": .string(answer.message), "locale": .string(answer.locale),
            "messageIdentifier": .string(answer.messageIdentifier.uuidString.lowercased()),
        ]
        if let offer = answer.offer {
            var fields: [String: JSONValue] = ["type": .string(offer.type.ruleName), "offerId": .string(offer.id)]
            fields["productId"] = decision.productId.map(JSONValue.string)
            shown["offer"] = .object(fields)
        }
        if let product = answer.alternateProduct {
            var fields: [String: JSONValue] = ["productId": .string(product)]
            fields["billingPlanType"] = answer.billingPlanType.map(JSONValue.string)
            shown["alternateProduct"] = .object(fields)
        }
        var data = decisionData(decision, appAccountToken: appAccountToken)
        data["answer"] = .object(shown)
        data["requestIdentifier"] = decision.notificationUUID.map(JSONValue.string)
        return encoded(type: "retention.answered", id: decision.id, at: decision.decidedAt, data: data)
    }

    /// What every decision's event names: the decision, the subscription, the customer, the rule
    /// and the trigger.
    private static func decisionData(_ decision: OfferDecisionRecord, appAccountToken: String?) -> [String: JSONValue] {
        var data: [String: JSONValue] = [
            "decisionId": .string(decision.id), "originalTransactionId": .string(decision.originalTransactionId),
            "trigger": .string(decision.trigger),
        ]
        data["appAccountToken"] = appAccountToken.map(JSONValue.string)
        data["ruleId"] = decision.ruleId.map(JSONValue.string)
        return data
    }

    /// `consumption.requested`: Apple asked about a refund. The data names the purchase, Apple's
    /// reason, Apple's deadline and when Verdict decides unless the backend reports its facts with
    /// `"final": true` first (`PUT /v1/transactions/{transactionId}/facts`).
    public static func consumptionRequested(
        notificationUUID: String, transactionId: String, originalTransactionId: String?, appAccountToken: String?,
        productId: String?, reason: String?, deadline: Int64, decidesAt: Int64, at: Int64
    ) -> String {
        var data: [String: JSONValue] = [
            "notificationUUID": .string(notificationUUID), "transactionId": .string(transactionId),
            "deadline": .integer(deadline), "decidesAt": .integer(decidesAt),
        ]
        data["originalTransactionId"] = originalTransactionId.map(JSONValue.string)
        data["appAccountToken"] = appAccountToken.map(JSONValue.string)
        data["productId"] = productId.map(JSONValue.string)
        data["consumptionRequestReason"] = reason.map(JSONValue.string)
        return encoded(type: "consumption.requested", id: notificationUUID, at: at, data: data)
    }

    /// The event's body: `{"type","id","createdAt","data"}`, keys sorted.
    private static func encoded(type: String, id: String, at: Int64, data: [String: JSONValue]) -> String {
        let event = JSONValue.object(["type": .string(type), "id": .string(id), "createdAt": .integer(at), "data": .object(data)])
        return String(decoding: (try? JSONEncoder.service.encode(event)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// The durable delivery job for `body`, created at `at` and sent from `sendAt` (default `at`).
    static func job(body: String, key: String, at: Int64, sendAt: Int64? = nil) -> NewJob {
        NewJob(kind: WebhookDelivery.jobKind, payload: body, dedupeKey: dedupeKey(key), runAt: sendAt ?? at, createdAt: at,
               traceParent: TraceParent.current())
    }

    /// The delivery job's dedupe key for the event `key` (one job per event).
    static func dedupeKey(_ key: String) -> String { "\(WebhookDelivery.jobKind):\(key)" }
}
