import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Notifications built by the test and signed with the simulator's signer (Apple's chain as the
/// service trusts it), for what no simulator scenario sends: a group member's transaction, a seat
/// change on a notification type of the test's choosing, `UNCLAIM_SEATS` with or without `data`.
extension ServiceHarness {
    /// A delivered notification: Apple's answer, its UUID, and its API view once processed (empty
    /// when it was refused).
    struct Delivered {
        var status: Int
        var notificationUUID: String
        var view: [String: JSONValue]

        /// The text a handler left in the processing result (`result.handlers.<name>`).
        func handlerOutput(_ name: String) -> String? {
            JSONValue.object(view).value(at: "result.handlers.\(name)")?.stringValue
        }
    }

    /// Signs a notification of `type` / `subtype` for the simulator's app, with `transaction` and
    /// `renewalInfo` signed now, delivers it, and waits until it is processed when accepted.
    /// Without `data`, the notification carries only `unclaimInfo` (when given).
    @discardableResult
    func deliverSigned(
        _ type: NotificationTypeV2, _ subtype: Subtype? = nil, transaction: JWSTransactionDecodedPayload? = nil,
        renewalInfo: JWSRenewalInfoDecodedPayload? = nil, reason: ConsumptionRequestReason? = nil,
        unclaimInfo: UnclaimInfo? = nil, withData: Bool = true
    ) async throws -> Delivered {
        let now = store.now
        let configuration = store.configuration
        var transaction = transaction
        transaction?.signedDate = now
        var renewalInfo = renewalInfo
        renewalInfo?.signedDate = now
        let data = NotificationData(
            environment: configuration.environment, appAppleId: configuration.appAppleId, bundleId: configuration.bundleId,
            bundleVersion: "1.0", signedTransactionInfo: try transaction.map { try store.signer.sign($0) },
            signedRenewalInfo: try renewalInfo.map { try store.signer.sign($0) }, consumptionRequestReason: reason)
        let uuid = UUID().uuidString.lowercased()
        let payload = ResponseBodyV2DecodedPayload(
            notificationType: type, subtype: subtype, notificationUUID: uuid, data: withData ? data : nil, version: "2.0",
            signedDate: now, unclaimInfo: unclaimInfo)
        let (status, _) = try await deliver(try store.signer.sign(payload))
        guard status == 200 else { return Delivered(status: status, notificationUUID: uuid, view: [:]) }
        return Delivered(status: status, notificationUUID: uuid, view: try await waitUntilProcessed(uuid))
    }

    /// A group member's transaction of the purchaser's subscription: the purchaser's seats and
    /// tiers repeated, its own `transactionId` and `originalTransactionId`, `ASSIGNED`, no token.
    static func memberTransaction(of purchaser: JWSTransactionDecodedPayload, id: String) -> JWSTransactionDecodedPayload {
        var member = purchaser
        member.transactionId = id
        member.originalTransactionId = id
        member.webOrderLineItemId = "\(id)-1"
        member.inAppOwnershipType = .assigned
        member.appAccountToken = nil
        return member
    }

    /// The offer decisions stored for a subscription, newest first (`GET /v1/decisions`).
    func decisions(_ originalTransactionId: String) async throws -> [[String: JSONValue]] {
        let (status, body) = try await request(.GET, "/v1/decisions?originalTransactionId=\(originalTransactionId)")
        guard status == 200 else { throw ServiceTestError("GET /v1/decisions answered \(status)") }
        return body.jsonObject["decisions"]?.arrayValue?.compactMap(\.objectValue) ?? []
    }

    /// One rule's row of `GET /v1/rules/stats`: in `rules` (offers) or `refundRules`.
    func ruleStatistics(_ ruleId: String, refunds: Bool = false) async throws -> [String: JSONValue]? {
        let stats = try await request(.GET, "/v1/rules/stats").body.jsonObject
        let rows = stats[refunds ? "refundRules" : "rules"]?.arrayValue?.compactMap(\.objectValue) ?? []
        return rows.first { $0["ruleId"]?.stringValue == ruleId }
    }
}
