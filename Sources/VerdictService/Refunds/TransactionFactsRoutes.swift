import AppStoreServer
import Foundation
import Hummingbird
import VerdictStorage
import VerdictRequests

/// What the app knows about a purchase, for refund decisions (bearer token):
/// - `PUT /v1/transactions/{transactionId}/facts` (a ``TransactionFactsRequest``) replaces the
///   facts. `"final": true` says nothing more will be reported: a refund request waiting for the
///   app's facts is decided now;
/// - `GET /v1/transactions/{transactionId}/facts`.
///
/// The facts belong to the transaction's app; the app may report them before Apple's notification
/// brings the transaction, so a write for a transaction no app has yet goes to the request's
/// ``RequestApps/single()`` app. A read finds the facts in the apps the request may act for.
struct TransactionFactsRoutes {
    let now: @Sendable () -> Date

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.put("/v1/transactions/{transactionId}/facts") { request, context in
            let transactionId = try context.transactionId()
            let body = try await request.decode(as: TransactionFactsRequest.self, context: context)
            let repository = try await context.apps.owner { app in
                try await app.repository.transaction(id: transactionId) != nil
            }.repository
            let at = now().appStoreMilliseconds
            let record = TransactionFactsRecord(
                transactionId: transactionId, deliveryStatus: body.deliveryStatus?.rawValue,
                consumptionPercentage: body.consumptionPercentage, sampleContentProvided: body.sampleContentProvided,
                sessionsSincePurchase: body.sessionsSincePurchase, updatedAt: at, finalAt: body.final ? at : nil)
            try await repository.setTransactionFacts(record)
            if body.final, let chain = try await repository.transaction(id: transactionId)?.originalTransactionId {
                // A refund request waiting for these facts goes ahead now.
                try await repository.wakeNotificationJobs(originalTransactionId: chain, now: at)
            }
            return try JSONBody.response(FactsView(record))
        }
        router.get("/v1/transactions/{transactionId}/facts") { _, context in
            let transactionId = try context.transactionId()
            guard let (_, record) = try await context.apps.locate({ try await $0.repository.transactionFacts(transactionId: transactionId) })
            else {
                throw ServiceError.notFound("no facts were reported for transaction \(transactionId)")
            }
            return try JSONBody.response(FactsView(record))
        }
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
