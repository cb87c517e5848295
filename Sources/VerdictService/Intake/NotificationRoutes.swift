import AppStoreServer
import Foundation
import Hummingbird
import VerdictStorage

/// `POST /v1/notifications` (Apple's body, no token) and `GET /v1/notifications/{notificationUUID}`
/// (bearer token).
struct NotificationRoutes {
    /// The largest body accepted (Apple's payloads are a few KiB).
    static let maximumBodyBytes = 64 * 1024

    let apps: AppDirectory

    func registerIntake(on router: some RouterMethods<ServiceRequestContext>) {
        router.post("/v1/notifications") { request, context in
            try await receive(request, context: context)
        }
    }

    func registerLookup(on router: some RouterMethods<ServiceRequestContext>) {
        router.get("/v1/notifications/{notificationUUID}") { _, context in
            let uuid = try context.parameters.require("notificationUUID")
            guard let (_, record) = try await context.apps.locate({ try await $0.repository.notification(uuid: uuid) }) else {
                throw ServiceError.notFound("no notification \(uuid) is stored")
            }
            return try JSONBody.response(NotificationView(record))
        }
    }

    func receive(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let signedPayload = try await SignedPayloadBody.read(request, limit: Self.maximumBodyBytes)
        let outcome: NotificationIntake.Outcome
        do {
            outcome = try await apps.app(forNotification: signedPayload).intake.accept(signedPayload: signedPayload, source: .delivery)
        } catch {
            // The code and the reason the answer carries (e.g. an UNCLAIM_SEATS without `data` names
            // no app: INVALID_APP_IDENTIFIER).
            let refusal = error.serviceError
            context.logger.notice("notification refused", metadata: ["code": .string(refusal.code), "reason": .string(refusal.message)])
            throw refusal
        }
        return try JSONBody.response([
            "notificationUUID": outcome.notificationUUID,
            "status": outcome.isNew ? "accepted" : "duplicate",
        ])
    }
}

/// The API view of a stored notification.
struct NotificationView: Encodable {
    var notificationUUID: String
    var notificationType: String
    var subtype: String?
    var environment: String?
    var originalTransactionId: String?
    var transactionId: String?
    var signedDate: Int64
    var receivedAt: Int64
    var source: String
    var state: String
    var attempts: Int
    var lastError: String?
    var processedAt: Int64?
    var processedCount: Int
    var result: JSONFragment?
    var content: JSONFragment

    init(_ record: NotificationRecord) {
        let n = record.notification
        notificationUUID = n.notificationUUID
        notificationType = n.notificationType
        subtype = n.subtype
        environment = n.environment
        originalTransactionId = n.originalTransactionId
        transactionId = n.transactionId
        signedDate = n.signedDate
        receivedAt = n.receivedAt
        source = n.source.rawValue
        state = record.state.rawValue
        attempts = record.attempts
        lastError = record.lastError
        processedAt = record.processedAt
        processedCount = record.processedCount
        result = record.result.map(JSONFragment.init(text:))
        content = JSONFragment(text: n.decodedJSON)
    }
}
