import Foundation
import Hummingbird
import VerdictStorage

/// `GET /v1/decisions/{id}`, `GET /v1/subscriptions/{originalTransactionId}/decisions?limit=…` (and
/// the same as `GET /v1/decisions?originalTransactionId=…&limit=…`): decision
/// records with their explanations (text and structured) and the facts they were made on.
struct DecisionRoutes {
    let repository: any OfferDecisionStore

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.get("/v1/decisions/{decisionId}") { _, context in
            let id = try context.parameters.require("decisionId")
            guard let record = try await repository.offerDecision(id: id.lowercased()) else {
                throw ServiceError.notFound("no decision \(id)")
            }
            return try JSONBody.response(DecisionView(record))
        }
        router.get("/v1/decisions") { request, _ in
            guard let originalTransactionId = try request.query("originalTransactionId"), !originalTransactionId.isEmpty else {
                throw ServiceError.badRequest("MISSING_PARAMETER", "originalTransactionId is required")
            }
            return try await decisions(originalTransactionId: originalTransactionId, request)
        }
        router.get("/v1/subscriptions/{originalTransactionId}/decisions") { request, context in
            try await decisions(originalTransactionId: try context.originalTransactionId(), request)
        }
    }

    /// The subscription's decisions, newest first (`limit`, default 20, at most 200).
    private func decisions(originalTransactionId: String, _ request: Request) async throws -> Response {
        let limit = try request.limit(default: 20, maximum: 200)
        let records = try await repository.offerDecisions(originalTransactionId: originalTransactionId, limit: limit)
        return try JSONBody.response(["decisions": records.map(DecisionView.init)])
    }
}
