import Foundation
import Hummingbird
import NIOCore

extension VerdictServer {
    /// The router with every endpoint: Apple's calls and probes open, everything else behind bearer
    /// tokens, which also give each request the apps it may act for (``RequestApps``).
    public func makeRouter() -> Router<ServiceRequestContext> {
        let router = Router(context: ServiceRequestContext.self)
        router.add(middleware: RequestTracingMiddleware())
        router.add(middleware: RequestLogMiddleware())
        let methods = MethodNotAllowed()
        router.add(middleware: ErrorMiddleware(methods: methods))
        router.add(middleware: ConcurrencyLimitMiddleware(limit: configuration.httpMaxConcurrentRequests))
        let notifications = NotificationRoutes(apps: apps)
        let operations = OperationsRoutes(
            repository: database, monitor: readiness, apps: apps, metrics: metrics, jobKinds: worker.handlers.keys.sorted(), now: now
        )
        notifications.registerIntake(on: router)
        RealtimeRoutes(apps: apps, metrics: metrics).register(on: router)
        operations.registerProbes(on: router)
        router.get("/openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml))
            )
        }
        let tokens = TokenDirectory(tokens: configuration.apiTokens)
        let limiter = configuration.rateLimitPerSecond > 0
            ? RateLimiter(rate: Double(configuration.rateLimitPerSecond), burst: configuration.rateLimitBurst) : nil
        let authenticated = router.group().add(middleware: BearerTokenMiddleware(tokens: tokens, apps: apps))
        if let limiter { authenticated.add(middleware: RateLimitMiddleware(limiter: limiter)) }
        notifications.registerLookup(on: authenticated)
        operations.registerAuthenticated(on: authenticated)
        RulesRoutes(attributionWindowDays: Int(configuration.attributionWindow.components.seconds / 86_400)).register(on: authenticated)
        CustomerAttributesRoutes(now: now).register(on: authenticated)
        OfferRoutes().register(on: authenticated)
        CustomerOfferRoutes(now: now).register(on: authenticated)
        DecisionRoutes().register(on: authenticated)
        ConsentRoutes(now: now).register(on: authenticated)
        TransactionFactsRoutes(now: now).register(on: authenticated)
        ConsumptionRoutes().register(on: authenticated)
        ReplayRoutes(signal: signal, now: now).register(on: authenticated)
        if configuration.consoleEnabled {
            let renderer = ConsoleRenderer.shared
            let sessions = ConsoleSessions(
                store: database, directory: apps, tokens: tokens, lifetime: configuration.consoleSessionLifetime,
                secureCookies: configuration.publicURL?.scheme == "https", now: now)
            // Each page acts for one of the session's apps, through that app's context.
            ConsoleRoutes(
                access: ConsoleAccess(sessions: sessions, limiter: limiter), tokens: tokens, renderer: renderer,
                pages: ConsolePages(apps: apps, renderer: renderer, now: now),
                replays: ConsoleReplayPages(renderer: renderer, signal: signal, now: now)
            ).register(on: router)
        }
        methods.record(router)
        return router
    }
}
