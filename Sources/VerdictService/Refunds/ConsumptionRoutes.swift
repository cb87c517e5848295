import Foundation
import Hummingbird
import VerdictStorage

/// Consumption request records for app backends and support staff (bearer token):
/// - `GET /v1/consumption/{transactionId}` — the newest request for the purchase in full
///   (``ConsumptionView``), with earlier ones under `earlier`;
/// - `GET /v1/consumption?limit=N` — the newest requests of any purchase (default 20, at most 200).
struct ConsumptionRoutes {
    let repository: any ConsumptionRequestStore

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.get("/v1/consumption/{transactionId}") { _, context in
            let transactionId = try context.transactionId()
            let records = try await repository.consumptionRequests(transactionId: transactionId)
            guard !records.isEmpty else {
                throw ServiceError.notFound("no consumption request was received for transaction \(transactionId)")
            }
            let views = try await views(of: records)
            return try JSONBody.response(Detail(request: views[0], earlier: Array(views.dropFirst())))
        }
        router.get("/v1/consumption") { request, _ in
            let limit = try request.limit(default: 20, maximum: 200)
            return try JSONBody.response(["requests": try await views(of: repository.recentConsumptionRequests(limit: limit))])
        }
    }

    /// Each record with its submission attempts.
    private func views(of records: [ConsumptionRequestRecord]) async throws -> [ConsumptionView] {
        var views: [ConsumptionView] = []
        for record in records {
            views.append(ConsumptionView(record, attempts: try await repository.consumptionAttempts(requestId: record.id)))
        }
        return views
    }

    /// The newest request flattened at the top level, plus the earlier ones.
    struct Detail: Encodable {
        var request: ConsumptionView
        var earlier: [ConsumptionView]

        func encode(to encoder: any Encoder) throws {
            try request.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(earlier, forKey: .earlier)
        }

        enum Key: String, CodingKey { case earlier }
    }
}
