import AppStoreServer
import Foundation
import Hummingbird
import RuleEngine
import VerdictRequests
import VerdictStorage

/// `PUT` and `GET /v1/customers/{appAccountToken}/attributes`: the values an app backend keeps for
/// a customer (e.g. exports in the last 30 days), which rules read as `customer.attributes.<name>`.
/// A PUT replaces the whole set and is checked against the types the active bundle declares under
/// `attributes:` (`CustomerAttributesRequest`: 422 on an undeclared name or a value of the wrong type).
///
/// An appAccountToken means something only to its app: both act for the request's one app
/// (``RequestApps/single()``), its attributes and its bundle's declared types.
struct CustomerAttributesRoutes {
    let now: @Sendable () -> Date

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.put("/v1/customers/{appAccountToken}/attributes") { request, context in
            let token = try context.appAccountToken()
            let body = try await request.decode(as: CustomerAttributesRequest.self, context: context)
            let app = try context.apps.single()
            guard let bundle = app.rules.current else {
                throw ServiceError.unavailable("RULES_UNAVAILABLE", "no valid rule bundle is loaded, so the attribute types are unknown")
            }
            try body.check(against: bundle.schema)
            let json = String(decoding: try JSONEncoder.service.encode(body.attributes), as: UTF8.self)
            let record = CustomerAttributesRecord(appAccountToken: token, json: json, updatedAt: now().appStoreMilliseconds)
            try await app.repository.setCustomerAttributes(record)
            return try JSONBody.response(AttributesView(record))
        }
        router.get("/v1/customers/{appAccountToken}/attributes") { _, context in
            let token = try context.appAccountToken()
            guard let record = try await context.apps.single().repository.customerAttributes(appAccountToken: token) else {
                throw ServiceError.notFound("no attributes were set for appAccountToken \(token)")
            }
            return try JSONBody.response(AttributesView(record))
        }
    }

    /// The response body.
    struct AttributesView: Encodable {
        var appAccountToken: String
        var attributes: JSONFragment
        var updatedAt: Int64

        init(_ record: CustomerAttributesRecord) {
            appAccountToken = record.appAccountToken
            attributes = JSONFragment(text: record.json)
            updatedAt = record.updatedAt
        }
    }
}
