import AppStoreServer
import Foundation
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
        var data: [String: JSONValue] = [
            "decisionId": .string(decision.id), "originalTransactionId": .string(decision.originalTransactionId),
            "trigger": .string(decision.trigger), "offer": .object(offer),
        ]
        data["appAccountToken"] = appAccountToken.map(JSONValue.string)
        data["ruleId"] = decision.ruleId.map(JSONValue.string)
        let event = JSONValue.object([
            "type": .string("offer.targeted"), "id": .string(decision.id),
            "createdAt": .integer(decision.decidedAt), "data": .object(data),
        ])
        return String(decoding: (try? JSONEncoder.service.encode(event)) ?? Data("{}".utf8), as: UTF8.self)
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
        let event = JSONValue.object([
            "type": .string("consumption.requested"), "id": .string(notificationUUID),
            "createdAt": .integer(at), "data": .object(data),
        ])
        return String(decoding: (try? JSONEncoder.service.encode(event)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// The durable delivery job for `body`.
    static func job(body: String, key: String, at: Int64) -> NewJob {
        NewJob(kind: WebhookDelivery.jobKind, payload: body, dedupeKey: "\(WebhookDelivery.jobKind):\(key)", runAt: at, createdAt: at)
    }
}
