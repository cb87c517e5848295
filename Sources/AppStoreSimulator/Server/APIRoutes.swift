import AppStoreServer
import Foundation
import Hummingbird
import Logging

/// Everything the App Store Server API handlers share, and the pipeline each request goes through:
/// injected faults (latency, dropped connection, canned errors, optionally with `Retry-After`) →
/// bearer-token check (401 with an empty body) → rate limit (429 with `Retry-After` in UNIX
/// milliseconds) → the handler.
struct APIRoutes: Sendable {
    let store: SimulatorStore
    let deliverer: NotificationDeliverer
    let authenticator: BearerTokenAuthenticator
    let rateLimiter: RateLimiter
    let faults: FaultInjector
    /// The clock API tokens are checked against.
    let tokenClock: @Sendable () -> Date
    let logger: Logger

    typealias Handler = @Sendable (Request, SimulatorRequestContext) async throws -> Response

    /// Registers Apple's paths.
    func register(on router: Router<SimulatorRequestContext>) {
        router.get("/inApps/v1/transactions/{transactionId}",
                   use: guarded(.getTransactionInfo, getTransactionInfo))
        router.get("/inApps/v2/history/{transactionId}",
                   use: guarded(.getTransactionHistory, getTransactionHistory))
        router.get("/inApps/v1/subscriptions/{transactionId}",
                   use: guarded(.getAllSubscriptionStatuses, getAllSubscriptionStatuses))
        router.get("/inApps/v2/refund/lookup/{transactionId}",
                   use: guarded(.getRefundHistory, getRefundHistory))
        router.put("/inApps/v2/transactions/consumption/{transactionId}",
                   use: guarded(.sendConsumptionInformation, sendConsumptionInformation))
        router.put("/inApps/v1/transactions/consumption/{transactionId}",
                   use: guarded(.sendConsumptionInformationV1, sendConsumptionInformationV1))
        // Apple names this segment {originalTransactionId}; the router needs one name per segment.
        router.put("/inApps/v1/transactions/{transactionId}/appAccountToken",
                   use: guarded(.setAppAccountToken, setAppAccountToken))
        router.post("/inApps/v1/notifications/history",
                    use: guarded(.getNotificationHistory, getNotificationHistory))
        router.post("/inApps/v1/notifications/test",
                    use: guarded(.requestTestNotification, requestTestNotification))
        router.get("/inApps/v1/notifications/test/{testNotificationToken}",
                   use: guarded(.getTestNotificationStatus, getTestNotificationStatus))
        router.put("/inApps/v1/messaging/message/{messageIdentifier}", use: guarded(.uploadMessage, uploadMessage))
        router.delete("/inApps/v1/messaging/message/{messageIdentifier}", use: guarded(.deleteMessage, deleteMessage))
        router.get("/inApps/v1/messaging/message/list", use: guarded(.getMessageList, getMessageList))
        router.put("/inApps/v1/messaging/image/{imageIdentifier}", use: guarded(.uploadImage, uploadImage))
        router.delete("/inApps/v1/messaging/image/{imageIdentifier}", use: guarded(.deleteImage, deleteImage))
        router.get("/inApps/v1/messaging/image/list", use: guarded(.getImageList, getImageList))
        router.put("/inApps/v1/messaging/default/{productId}/{locale}", use: guarded(.configureDefaultMessage, configureDefaultMessage))
        router.get("/inApps/v1/messaging/default/{productId}/{locale}", use: guarded(.getDefaultMessage, getDefaultMessage))
        router.delete("/inApps/v1/messaging/default/{productId}/{locale}", use: guarded(.deleteDefaultMessage, deleteDefaultMessage))
        router.put("/inApps/v1/messaging/realtime/url", use: guarded(.configureRealtimeURL, configureRealtimeURL))
        router.get("/inApps/v1/messaging/realtime/url", use: guarded(.getRealtimeURL, getRealtimeURL))
        router.delete("/inApps/v1/messaging/realtime/url", use: guarded(.deleteRealtimeURL, deleteRealtimeURL))
        router.post("/inApps/v1/messaging/performanceTest", use: guarded(.initiatePerformanceTest, initiatePerformanceTest))
        router.get("/inApps/v1/messaging/performanceTest/result/{requestId}",
                   use: guarded(.getPerformanceTestResult, getPerformanceTestResult))
    }

    private func guarded(_ endpoint: SimulatorEndpoint, _ handler: @escaping Handler) -> Handler {
        { request, context in
            let plan = faults.plan(for: endpoint)
            if plan.latencyMilliseconds > 0 {
                try await Task.sleep(for: .milliseconds(plan.latencyMilliseconds))
            }
            if let fault = plan.action {
                switch fault.kind {
                case .dropConnection:
                    context.closeConnection()
                    throw DroppedConnection()
                case .error, .latency:
                    var response = APIErrorResponse(status: fault.status ?? 500, errorCode: fault.errorCode,
                                                    errorMessage: fault.errorMessage).response()
                    if let delay = fault.retryAfterMilliseconds {
                        let retryAt = Date().addingTimeInterval(Double(delay) / 1000)
                        response.headers[.init("Retry-After")!] = String(retryAt.appStoreMilliseconds)
                    }
                    return response
                }
            }
            if let rejection = authenticator.check(request.headers[.authorization], now: tokenClock()) {
                logger.debug("API token rejected", metadata: ["reason": "\(rejection.rawValue)"])
                return Response(status: .unauthorized)
            }
            if let retryAfter = rateLimiter.admit(endpoint, now: store.now) {
                var headers = HTTPFields()
                headers[.init("Retry-After")!] = String(retryAfter.appStoreMilliseconds)
                return JSONResponse.make(
                    status: 429, ErrorPayload(errorCode: 4_290_000, errorMessage: "Rate limit exceeded."),
                    headers: headers)
            }
            do {
                return try await handler(request, context)
            } catch let error as APIErrorResponse {
                return error.response()
            }
        }
    }

    /// Thrown after closing a connection on purpose, so nothing is written to it.
    struct DroppedConnection: Error {}

    // MARK: - Shared helpers

    /// The path's transaction id, which must be a positive decimal number (else 4000006).
    func pathTransactionId(_ context: SimulatorRequestContext, _ name: String = "transactionId") throws -> String {
        guard let id = context.parameters.get(name), !id.isEmpty, id.count <= 20,
              id.allSatisfy({ $0.isASCII && $0.isNumber })
        else { throw APIErrorResponse.invalidTransactionId }
        return id
    }

    /// The customer (app transaction id) a path id belongs to (else 4040010).
    func customer(for id: String) async throws -> String {
        guard let customer = await store.customerId(for: id) else { throw APIErrorResponse.transactionIdNotFound }
        return customer
    }
}

/// Opaque continuation tokens (`revision`, `paginationToken`): Base64URL of a tagged position.
enum ContinuationToken {
    static func encode(_ tag: String, _ position: String) -> String {
        Base64URL.encode(Data("\(tag).\(position)".utf8))
    }

    static func decode(_ tag: String, _ token: String) -> String? {
        guard let data = Base64URL.decode(token), let text = String(data: data, encoding: .utf8),
              text.hasPrefix(tag + ".")
        else { return nil }
        return String(text.dropFirst(tag.count + 1))
    }
}
