import AppStoreServer
import AppStoreServerHTTP
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import RuleEngine
import ServiceLifecycle
import VerdictStorage

/// A configured Verdict service: its database, verifier, rules, job worker and HTTP routes.
///
/// ``open(configuration:logger:notificationHandlers:appStoreTransport:now:)`` opens the database
/// and applies migrations, loads the rule bundle, and builds the parts; ``makeApplication(onServerRunning:)``
/// wraps them in a Hummingbird application whose services (job worker, reconciliation) run with
/// the server and stop gracefully with it.
public final class VerdictServer: Sendable {
    public let configuration: ServiceConfiguration
    public let repository: any VerdictRepository
    public let verifier: SignedDataVerifier
    public let metrics: ServiceMetrics
    public let signal: JobSignal
    public let intake: NotificationIntake
    public let rules: BundleStore
    /// Loads the rules folder into `rules` (at start, on change, on SIGHUP).
    public let rulesReloader: RulesReloader
    public let appStore: AppStoreAPIAccess
    public let worker: JobWorker
    /// Signs promotional offers; nil without an In-App Purchase key.
    public let offerSigner: OfferSigner?
    /// Decides retention offers (on notifications and on demand).
    public let offerDecider: OfferDecider
    /// Decides refund requests (CONSUMPTION_REQUEST).
    public let refundDecider: RefundDecider
    /// Answers Retention Messaging realtime requests.
    let retentionDecider: RetentionDecider
    /// The retention message texts Apple approved, cached for the realtime path.
    let approvedMessages: ApprovedMessageCache
    /// Applies the migrations later when the database was away at start.
    let schema: SchemaMigration
    /// Checks the database in the background for `/readyz`.
    let readiness: ReadinessMonitor
    let logger: Logger
    let now: @Sendable () -> Date

    init(configuration: ServiceConfiguration, repository: any VerdictRepository, verifier: SignedDataVerifier,
         rulesReloader: RulesReloader, appStore: AppStoreAPIAccess, metrics: ServiceMetrics,
         notificationHandlers: [any NotificationHandler], schemaMigrated: Bool, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        let schema = SchemaMigration(repository: repository, migrated: schemaMigrated, logger: logger)
        self.schema = schema
        self.readiness = ReadinessMonitor(
            repository: repository, checkTimeout: configuration.databaseTimeout,
            countsWaitingSubmissions: !appStore.isAvailable, now: now)
        self.repository = repository
        self.verifier = verifier
        self.rules = rulesReloader.store
        self.rulesReloader = rulesReloader
        self.appStore = appStore
        self.metrics = metrics
        self.logger = logger
        self.now = now
        self.offerSigner = OfferSigner(configuration: configuration, repository: repository, now: now)
        let offerDecider = OfferDecider(
            repository: repository, rules: rulesReloader.store, webhooks: configuration.webhookURL != nil, metrics: metrics,
            now: now)
        self.offerDecider = offerDecider
        let refundDecider = RefundDecider(
            repository: repository, rules: rulesReloader.store, assumeConsent: configuration.assumeConsent, metrics: metrics,
            now: now)
        self.refundDecider = refundDecider
        let approvedMessages = ApprovedMessageCache(repository: repository)
        self.approvedMessages = approvedMessages
        self.retentionDecider = RetentionDecider(
            repository: repository, rules: rulesReloader.store, offerDecider: offerDecider, signer: offerSigner,
            approvals: approvedMessages, metrics: metrics, deadline: configuration.retentionDeadline, logger: logger, now: now)
        let signal = JobSignal()
        self.signal = signal
        self.intake = NotificationIntake(verifier: verifier, repository: repository, metrics: metrics, jobSignal: signal, now: now)
        var handlers: [any JobHandler] = [
            NotificationProcessor(
                repository: repository, handlers: [
                    OfferNotificationHandler(decider: offerDecider), OfferOutcomeHandler(
                        repository: repository, attributionWindow: configuration.attributionWindow.wholeMilliseconds, now: now),
                    OfferRevenueHandler(repository: repository, window: configuration.revenueWindow.wholeMilliseconds, now: now),
                    ConsumptionRequestHandler(
                        decider: refundDecider, repository: repository, grace: configuration.consumptionGrace.wholeMilliseconds,
                        webhooks: configuration.webhookURL != nil), RefundOutcomeHandler(repository: repository),
                ] + notificationHandlers, historySync: appStore.isAvailable,
                historyWait: configuration.historyWait.wholeMilliseconds, now: now),
            ConsumptionSubmissionJob(repository: repository, appStore: appStore, metrics: metrics, now: now),
            HistorySyncJob(repository: repository, verifier: verifier, appStore: appStore, now: now),
            WebhookDelivery(url: configuration.webhookURL, secret: configuration.webhookSecret, now: now),
            RuleReplayJob(repository: repository, rules: rulesReloader.store, leaseMilliseconds: configuration.workerLease.wholeMilliseconds, now: now),
        ]
        handlers.sort { $0.kind < $1.kind }
        self.worker = JobWorker(
            repository: repository, handlers: handlers, metrics: metrics, signal: signal,
            concurrency: configuration.workerConcurrency, leaseMilliseconds: configuration.workerLease.wholeMilliseconds,
            logger: logger, now: now,
            ready: { await schema.waitUntilMigrated() }
        )
    }

    /// Opens the database (applying migrations), loads the rules and builds the service. A
    /// PostgreSQL server that cannot be reached (or is recovering) does not fail it: the service
    /// starts not ready and migrates once the server answers (``SchemaMigration``).
    public static func open(
        configuration: ServiceConfiguration,
        logger: Logger,
        notificationHandlers: [any NotificationHandler] = [],
        appStoreTransport: (any AppStoreHTTPTransport)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> VerdictServer {
        let metrics = ServiceMetrics()
        let verifier = try SignedDataVerifier(
            rootCertificates: configuration.rootCertificates, bundleId: configuration.bundleId,
            appAppleId: configuration.appAppleId, environments: configuration.environments,
            onlineChecks: configuration.onlineChecks,
            ocspRequester: configuration.onlineChecks ? AsyncHTTPClientOCSPRequester() : nil
        )
        let timeout = configuration.databaseTimeout
        var options = StorageOptions(connectTimeout: min(timeout, .seconds(10)), operationTimeout: timeout)
        // A PostgreSQL server that is down or recovering at start does not stop the service: it
        // listens (not ready) and migrates once the server answers (``SchemaMigration``).
        let waitsForDatabase = if case .postgres = configuration.databaseURL { true } else { false }
        var migrated = true
        func migrateLater(_ error: StorageError) {
            logger.warning("the database is unavailable at start; serving as not ready until it answers",
                           metadata: ["error": "\(StorageErrorText.describe(error))"])
            migrated = false
        }
        let repository: any VerdictRepository
        do {
            repository = try await RepositoryFactory.open(databaseURL: configuration.databaseURL, options: options, logger: logger)
                .scoped(to: configuration.bundleId)
        } catch let error as StorageError where error.isUnavailable && waitsForDatabase {
            migrateLater(error)
            options.connectOnOpen = false
            repository = try await RepositoryFactory.open(databaseURL: configuration.databaseURL, options: options, logger: logger)
                .scoped(to: configuration.bundleId)
        }
        if migrated {
            do {
                try await repository.migrate()
            } catch let error as StorageError where error.isUnavailable && waitsForDatabase {
                migrateLater(error)
            } catch {
                try? await repository.shutdown()
                throw error
            }
        }
        // A bundle refused at start leaves no bundle: /readyz reports not ready until a good one loads.
        let rulesReloader = RulesReloader(
            store: BundleStore(), directory: configuration.rulesDirectory, metrics: metrics, logger: logger, now: now)
        rulesReloader.reload(reason: "start")
        let appStore = AppStoreAPIAccess(configuration: configuration, metrics: metrics, transport: appStoreTransport)
        if let reason = appStore.unavailableReason {
            logger.notice("App Store Server API unavailable: \(reason)")
        }
        let server = VerdictServer(
            configuration: configuration, repository: repository, verifier: verifier, rulesReloader: rulesReloader, appStore: appStore,
            metrics: metrics, notificationHandlers: notificationHandlers, schemaMigrated: migrated, logger: logger, now: now
        )
        // The database answered a moment ago: `/readyz` knows it from the first request on.
        if migrated { await server.readiness.refresh() }
        return server
    }

    /// The router with every endpoint: intake and probes open, everything else behind bearer tokens.
    public func makeRouter() -> Router<ServiceRequestContext> {
        let router = Router(context: ServiceRequestContext.self)
        router.add(middleware: RequestLogMiddleware())
        let methods = MethodNotAllowed()
        router.add(middleware: ErrorMiddleware(methods: methods))
        router.add(middleware: ConcurrencyLimitMiddleware(limit: configuration.httpMaxConcurrentRequests))
        let notifications = NotificationRoutes(intake: intake, repository: repository)
        let operations = OperationsRoutes(
            repository: repository, monitor: readiness, rules: rules, appStore: appStore, metrics: metrics,
            jobKinds: worker.handlers.keys.sorted(), now: now
        )
        notifications.registerIntake(on: router)
        RealtimeRoutes(verifier: verifier, decider: retentionDecider, metrics: metrics).register(on: router)
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
        let authenticated = router.group().add(middleware: BearerTokenMiddleware(tokens: tokens))
        if let limiter { authenticated.add(middleware: RateLimitMiddleware(limiter: limiter)) }
        notifications.registerLookup(on: authenticated)
        operations.registerAuthenticated(on: authenticated)
        RulesRoutes(
            reloader: rulesReloader, repository: repository,
            attributionWindowDays: Int(configuration.attributionWindow.components.seconds / 86_400)
        ).register(on: authenticated)
        CustomerAttributesRoutes(repository: repository, rules: rules, now: now).register(on: authenticated)
        OfferRoutes(rules: rules, signer: offerSigner, signingUnavailableReason: appStore.unavailableReason)
            .register(on: authenticated)
        CustomerOfferRoutes(
            repository: repository, decider: offerDecider, signer: offerSigner,
            signingUnavailableReason: appStore.unavailableReason, now: now
        ).register(on: authenticated)
        DecisionRoutes(repository: repository).register(on: authenticated)
        ConsentRoutes(repository: repository, assumeConsent: configuration.assumeConsent, now: now).register(on: authenticated)
        TransactionFactsRoutes(repository: repository, now: now).register(on: authenticated)
        ConsumptionRoutes(repository: repository).register(on: authenticated)
        let launcher = ReplayLauncher(repository: repository, signal: signal, now: now)
        ReplayRoutes(repository: repository, launcher: launcher, now: now).register(on: authenticated)
        if configuration.consoleEnabled {
            let renderer = ConsoleRenderer.shared
            let sessions = ConsoleSessions(
                store: repository, lifetime: configuration.consoleSessionLifetime,
                secureCookies: configuration.publicURL?.scheme == "https", now: now)
            ConsoleRoutes(
                sessions: sessions, tokens: tokens, renderer: renderer, limiter: limiter,
                pages: ConsolePages(repository: repository, reloader: rulesReloader, renderer: renderer, now: now),
                replays: ConsoleReplayPages(repository: repository, launcher: launcher, reloader: rulesReloader, renderer: renderer, now: now)
            ).register(on: router)
        }
        methods.record(router)
        return router
    }

    /// The Hummingbird application: the router on the configured address, with the job worker,
    /// reconciliation and the rules watcher as services. `onServerRunning` receives the bound port;
    /// `reloadOnHangup` makes SIGHUP reload the rules (`verdict serve`).
    public func makeApplication(
        port: Int? = nil,
        reloadOnHangup: Bool = false,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let metrics = metrics
        let census = ConnectionCensus(limit: configuration.httpMaxConnections) { metrics.httpConnectionClosed(reason: $0) }
        let firstRequestTimeout = TimeAmount.milliseconds(configuration.httpFirstRequestTimeout.wholeMilliseconds)
        let requestTimeout = TimeAmount.milliseconds(configuration.httpRequestTimeout.wholeMilliseconds)
        let http1 = HTTPServerBuilder.http1(configuration: .init(additionalChannelHandlers: [
            ConnectionGuard(census: census, firstRequestTimeout: firstRequestTimeout, requestTimeout: requestTimeout),
        ]))
        var application = Application(
            router: makeRouter(),
            server: try configuration.tls.map { try HTTPServerBuilder.tls(http1, tlsConfiguration: $0.serverConfiguration) } ?? http1,
            configuration: .init(address: .hostname(configuration.host, port: port ?? configuration.port), serverName: nil),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        // Graceful shutdown runs in reverse order: the server stops accepting, reconciliation and
        // the worker finish (releasing leases), and only then is the database closed.
        application.addServices(RepositoryLifecycle(repository: repository))
        application.addServices(schema)
        application.addServices(readiness)
        application.addServices(worker)
        application.addServices(ReconciliationService(
            intake: intake, repository: repository, appStore: appStore, environments: configuration.environments,
            interval: configuration.reconcileInterval, logger: logger, now: now
        ))
        application.addServices(RulesWatcher(
            reloader: rulesReloader,
            interval: configuration.rulesReloadInterval > .zero ? configuration.rulesReloadInterval : nil,
            reloadOnHangup: reloadOnHangup
        ))
        return application
    }
}

/// Closes the repository after every other service stopped (it is added first, so graceful
/// shutdown reaches it last).
struct RepositoryLifecycle: Service {
    let repository: any StorageLifecycle

    func run() async throws {
        try? await gracefulShutdown()
        // Also on cancellation: closing must not be skipped because this task was cancelled.
        let repository = self.repository
        await Task { try? await repository.shutdown() }.value
    }
}
