import AppStoreServer
import Foundation
import Hummingbird
import VerdictStorage

/// What the app knows about a purchase, for refund decisions (bearer token):
/// - `PUT /v1/transactions/{transactionId}/facts`
///   `{"deliveryStatus", "consumptionPercentage", "sampleContentProvided", "sessionsSincePurchase", "final"}`
///   replaces the facts (every field optional; absent = unknown). Values are checked against
///   Apple's enums and ranges: `deliveryStatus` one of Apple's five, `consumptionPercentage` in
///   Apple's milliunits 0–100000 (422 otherwise). `"final": true` says nothing more will be
///   reported: a refund request waiting for the app's facts is decided now;
/// - `GET /v1/transactions/{transactionId}/facts`.
struct TransactionFactsRoutes {
    let repository: any JobStore & TransactionFactStore & TransactionStore
    let now: @Sendable () -> Date

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.put("/v1/transactions/{transactionId}/facts") { request, context in
            let transactionId = try Self.transactionId(context)
            let fields = try JSONFields(
                try await JSONBody.collect(request, limit: 4 * 1024),
                allowed: ["deliveryStatus", "consumptionPercentage", "sampleContentProvided", "sessionsSincePurchase", "final"])
            let delivery = try fields.string("deliveryStatus", maxLength: 64)
            if let delivery, !DeliveryStatus(rawValue: delivery).isKnown {
                throw ServiceError.unprocessable("INVALID_FIELD", "'deliveryStatus' must be one of "
                    + DeliveryStatus.knownValues.map(\.rawValue).joined(separator: ", "))
            }
            let percentage = try fields.integer("consumptionPercentage")
            if let percentage, !(0...100_000).contains(percentage) {
                throw ServiceError.unprocessable(
                    "INVALID_FIELD", "'consumptionPercentage' is in Apple's milliunits, 0–100000 (67.5 % = 67500)")
            }
            let sessions = try fields.integer("sessionsSincePurchase")
            if let sessions, sessions < 0 {
                throw ServiceError.unprocessable("INVALID_FIELD", "'sessionsSincePurchase' must be 0 or more")
            }
            let at = now().appStoreMilliseconds
            let final = try fields.bool("final") == true
            let record = TransactionFactsRecord(
                transactionId: transactionId, deliveryStatus: delivery, consumptionPercentage: percentage,
                sampleContentProvided: try fields.bool("sampleContentProvided"), sessionsSincePurchase: sessions,
                updatedAt: at, finalAt: final ? at : nil)
            try await repository.setTransactionFacts(record)
            if final, let chain = try await repository.transaction(id: transactionId)?.originalTransactionId {
                // A refund request waiting for these facts goes ahead now.
                try await repository.wakeNotificationJobs(originalTransactionId: chain, now: at)
            }
            return try JSONBody.response(FactsView(record))
        }
        router.get("/v1/transactions/{transactionId}/facts") { _, context in
            let transactionId = try Self.transactionId(context)
            guard let record = try await repository.transactionFacts(transactionId: transactionId) else {
                throw ServiceError.notFound("no facts were reported for transaction \(transactionId)")
            }
            return try JSONBody.response(FactsView(record))
        }
    }

    /// The path's transaction id: Apple's are decimal numbers (400 otherwise).
    static func transactionId(_ context: ServiceRequestContext) throws -> String {
        let id = try context.parameters.require("transactionId")
        guard !id.isEmpty, id.count <= 32, id.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ServiceError.badRequest("INVALID_PARAMETER", "transactionId must be Apple's decimal transaction id")
        }
        return id
    }

    /// The response body.
    struct FactsView: Encodable {
        var transactionId: String
        var deliveryStatus: String?
        var consumptionPercentage: Int64?
        var sampleContentProvided: Bool?
        var sessionsSincePurchase: Int64?
        var updatedAt: Int64
        /// Whether the app said these facts are final.
        var final: Bool

        init(_ record: TransactionFactsRecord) {
            final = record.finalAt != nil
            transactionId = record.transactionId
            deliveryStatus = record.deliveryStatus
            consumptionPercentage = record.consumptionPercentage
            sampleContentProvided = record.sampleContentProvided
            sessionsSincePurchase = record.sessionsSincePurchase
            updatedAt = record.updatedAt
        }
    }
}
