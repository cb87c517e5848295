import Foundation
import Hummingbird
import VerdictStorage

/// Consumption request records for app backends and support staff (bearer token):
/// - `GET /v1/consumption/{transactionId}` — the newest request for the purchase in full
///   (``ConsumptionView``), with earlier ones under `earlier`;
/// - `GET /v1/consumption?limit=N` — the newest requests of any purchase (default 20, at most 200)
///   of the request's ``RequestApps/single()`` app.
///
/// A purchase's requests are found in the app that has them, among the apps the request may act for.
struct ConsumptionRoutes {
    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.get("/v1/consumption/{transactionId}") { _, context in
            let transactionId = try context.transactionId()
            guard let (app, records) = try await context.apps.locate({ app -> [ConsumptionRequestRecord]? in
                let records = try await app.repository.consumptionRequests(transactionId: transactionId)
                return records.isEmpty ? nil : records
            }) else {
                throw ServiceError.notFound("no consumption request was received for transaction \(transactionId)")
            }
            let views = try await Self.views(of: records, in: app.repository)
            return try JSONBody.response(Detail(request: views[0], earlier: Array(views.dropFirst())))
        }
        router.get("/v1/consumption") { request, context in
            let limit = try request.limit(default: 20, maximum: 200)
            let repository = try context.apps.single().repository
            return try JSONBody.response(["requests": try await Self.views(
                of: repository.recentConsumptionRequests(limit: limit), in: repository)])
        }
    }

    /// Each record with its submission attempts (read from the records' app).
    private static func views(
        of records: [ConsumptionRequestRecord], in repository: any ConsumptionRequestStore
    ) async throws -> [ConsumptionView] {
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
