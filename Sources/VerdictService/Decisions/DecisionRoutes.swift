import Foundation
import Hummingbird
import VerdictStorage

/// `GET /v1/decisions/{id}`, `GET /v1/subscriptions/{originalTransactionId}/decisions?limit=…` (and
/// the same as `GET /v1/decisions?originalTransactionId=…&limit=…`): decision
/// records with their explanations (text and structured) and the facts they were made on.
///
/// Each is found through the record, among the apps the request may act for
/// (``RequestApps/locate(_:)``): a decision of another app is answered 404 as an unknown one, and
/// the decisions of another app's subscription as a subscription without any (an empty list).
struct DecisionRoutes {
    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.get("/v1/decisions/{decisionId}") { _, context in
            let id = try context.parameters.require("decisionId")
            guard let (_, record) = try await context.apps.locate({ try await $0.repository.offerDecision(id: id.lowercased()) }) else {
                throw ServiceError.notFound("no decision \(id)")
            }
            return try JSONBody.response(DecisionView(record))
        }
        router.get("/v1/decisions") { request, context in
            guard let originalTransactionId = try request.query("originalTransactionId"), !originalTransactionId.isEmpty else {
                throw ServiceError.badRequest("MISSING_PARAMETER", "originalTransactionId is required")
            }
            return try await decisions(originalTransactionId: originalTransactionId, request, context)
        }
        router.get("/v1/subscriptions/{originalTransactionId}/decisions") { request, context in
            try await decisions(originalTransactionId: try context.originalTransactionId(), request, context)
        }
    }

    /// The subscription's decisions, newest first (`limit`, default 20, at most 200): those of the
    /// first app whose decisions name it; none is the empty list.
    private func decisions(originalTransactionId: String, _ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let limit = try request.limit(default: 20, maximum: 200)
        let found = try await context.apps.locate { app -> [OfferDecisionRecord]? in
            let records = try await app.repository.offerDecisions(originalTransactionId: originalTransactionId, limit: limit)
            return records.isEmpty ? nil : records
        }
        return try JSONBody.response(["decisions": (found?.found ?? []).map(DecisionView.init)])
    }
}
