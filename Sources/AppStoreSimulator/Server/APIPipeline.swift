import AppStoreServer
import Foundation
import Hummingbird
import Logging

/// The App Store Server API of every served app under Apple's paths, and the pipeline each request
/// goes through: injected faults (latency, dropped connection, canned errors, optionally with
/// `Retry-After`) → bearer-token check, which also picks the app by the token's `bid` (401 with an
/// empty body) → rate limit (429 with `Retry-After` in UNIX milliseconds) → the handler of that
/// app's ``APIRoutes``. Faults and rate limits are the server's, shared by its apps.
struct APIPipeline: Sendable {
    /// Each app's routes, by bundle id.
    let routes: [String: APIRoutes]
    let authenticator: BearerTokenAuthenticator
    let rateLimiter: RateLimiter
    let faults: FaultInjector
    /// The clock API tokens are checked against.
    let tokenClock: @Sendable () -> Date
    /// The simulated clock rate-limit windows run on.
    let clock: SimulatorClock
    let logger: Logger

    /// The pipeline of `apps`, each accepting tokens signed with its own issued key.
    init(
        apps: [SimulatorApp], rateLimiter: RateLimiter, faults: FaultInjector, clock: SimulatorClock,
        tokenClock: @escaping @Sendable () -> Date, logger: Logger
    ) {
        self.routes = Dictionary(uniqueKeysWithValues: apps.map { ($0.bundleId, APIRoutes(app: $0)) })
        self.authenticator = BearerTokenAuthenticator(
            keys: Dictionary(uniqueKeysWithValues: apps.map { ($0.bundleId, $0.store.issuedKey) }))
        self.rateLimiter = rateLimiter
        self.faults = faults
        self.clock = clock
        self.tokenClock = tokenClock
        self.logger = logger
    }

    typealias Handler = @Sendable (Request, SimulatorRequestContext) async throws -> Response
    /// A handler of ``APIRoutes``, not yet bound to an app.
    typealias AppHandler = @Sendable (APIRoutes) -> Handler

    /// Registers Apple's paths.
    func register(on router: Router<SimulatorRequestContext>) {
        router.get("/inApps/v1/transactions/{transactionId}",
                   use: guarded(.getTransactionInfo) { $0.getTransactionInfo })
        router.get("/inApps/v2/history/{transactionId}",
                   use: guarded(.getTransactionHistory) { $0.getTransactionHistory })
        router.get("/inApps/v1/subscriptions/{transactionId}",
                   use: guarded(.getAllSubscriptionStatuses) { $0.getAllSubscriptionStatuses })
        router.get("/inApps/v2/refund/lookup/{transactionId}",
                   use: guarded(.getRefundHistory) { $0.getRefundHistory })
        router.put("/inApps/v2/transactions/consumption/{transactionId}",
                   use: guarded(.sendConsumptionInformation) { $0.sendConsumptionInformation })
        router.put("/inApps/v1/transactions/consumption/{transactionId}",
                   use: guarded(.sendConsumptionInformationV1) { $0.sendConsumptionInformationV1 })
        // Apple names this segment {originalTransactionId}; the router needs one name per segment.
        router.put("/inApps/v1/transactions/{transactionId}/appAccountToken",
                   use: guarded(.setAppAccountToken) { $0.setAppAccountToken })
        router.post("/inApps/v1/notifications/history",
                    use: guarded(.getNotificationHistory) { $0.getNotificationHistory })
        router.post("/inApps/v1/notifications/test",
                    use: guarded(.requestTestNotification) { $0.requestTestNotification })
        router.get("/inApps/v1/notifications/test/{testNotificationToken}",
                   use: guarded(.getTestNotificationStatus) { $0.getTestNotificationStatus })
        registerMessaging(on: router)
    }

    /// The Retention Messaging API's paths.
    private func registerMessaging(on router: Router<SimulatorRequestContext>) {
        router.put("/inApps/v1/messaging/message/{messageIdentifier}", use: guarded(.uploadMessage) { $0.uploadMessage })
        router.delete("/inApps/v1/messaging/message/{messageIdentifier}", use: guarded(.deleteMessage) { $0.deleteMessage })
        router.get("/inApps/v1/messaging/message/list", use: guarded(.getMessageList) { $0.getMessageList })
        router.put("/inApps/v1/messaging/image/{imageIdentifier}", use: guarded(.uploadImage) { $0.uploadImage })
        router.delete("/inApps/v1/messaging/image/{imageIdentifier}", use: guarded(.deleteImage) { $0.deleteImage })
        router.get("/inApps/v1/messaging/image/list", use: guarded(.getImageList) { $0.getImageList })
        router.put("/inApps/v1/messaging/default/{productId}/{locale}",
                   use: guarded(.configureDefaultMessage) { $0.configureDefaultMessage })
        router.get("/inApps/v1/messaging/default/{productId}/{locale}",
                   use: guarded(.getDefaultMessage) { $0.getDefaultMessage })
        router.delete("/inApps/v1/messaging/default/{productId}/{locale}",
                      use: guarded(.deleteDefaultMessage) { $0.deleteDefaultMessage })
        router.put("/inApps/v1/messaging/realtime/url", use: guarded(.configureRealtimeURL) { $0.configureRealtimeURL })
        router.get("/inApps/v1/messaging/realtime/url", use: guarded(.getRealtimeURL) { $0.getRealtimeURL })
        router.delete("/inApps/v1/messaging/realtime/url", use: guarded(.deleteRealtimeURL) { $0.deleteRealtimeURL })
        router.post("/inApps/v1/messaging/performanceTest",
                    use: guarded(.initiatePerformanceTest) { $0.initiatePerformanceTest })
        router.get("/inApps/v1/messaging/performanceTest/result/{requestId}",
                   use: guarded(.getPerformanceTestResult) { $0.getPerformanceTestResult })
    }

    private func guarded(_ endpoint: SimulatorEndpoint, _ handler: @escaping AppHandler) -> Handler {
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
            let app: APIRoutes
            switch authenticator.authenticate(request.headers[.authorization], now: tokenClock()) {
            case .success(let bundleId):
                guard let routes = routes[bundleId] else { return Response(status: .unauthorized) }
                app = routes
            case .failure(let rejection):
                logger.debug("API token rejected", metadata: ["reason": "\(rejection.rawValue)"])
                return Response(status: .unauthorized)
            }
            if let retryAfter = rateLimiter.admit(endpoint, now: clock.now) {
                var headers = HTTPFields()
                headers[.init("Retry-After")!] = String(retryAfter.appStoreMilliseconds)
                return JSONResponse.make(
                    status: 429, ErrorPayload(errorCode: 4_290_000, errorMessage: "Rate limit exceeded."),
                    headers: headers)
            }
            do {
                return try await handler(app)(request, context)
            } catch let error as APIErrorResponse {
                return error.response()
            }
        }
    }

    /// Thrown after closing a connection on purpose, so nothing is written to it.
    struct DroppedConnection: Error {}
}
