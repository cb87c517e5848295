import AppStoreServer
import AppStoreServerHTTP
import Foundation
import Logging
import RuleEngine
import VerdictStorage

/// Everything that is one app's own, built once at start: its settings, its rows of the database
/// (a repository acting for it), its verifier, rules, App Store Server API client, offer signer,
/// deciders, webhook and job handlers.
///
/// The flows — intake, processing, offers, refunds, the cancel page, replay, the console, the
/// statistics — receive the context of the app they act for; nothing reads a process-wide
/// instance of these. ``AppDirectory`` holds the contexts of every configured app.
public final class AppContext: Sendable {
    public let configuration: AppConfiguration
    /// The database, acting for this app: it reads and writes only this app's rows.
    public let repository: any VerdictRepository
    /// Verifies the payloads Apple signs for this app (its bundle id, App Apple ID, environments).
    public let verifier: SignedDataVerifier
    /// Loads this app's rules folder into ``rules`` (at start, on change, on SIGHUP).
    public let rulesReloader: RulesReloader
    public let appStore: AppStoreAPIAccess
    /// Signs this app's promotional offers; nil without an In-App Purchase key.
    public let offerSigner: OfferSigner?
    public let offerDecider: OfferDecider
    public let refundDecider: RefundDecider
    let retentionDecider: RetentionDecider
    /// The retention message texts Apple approved for this app, cached for the realtime path.
    let approvedMessages: ApprovedMessageCache
    public let intake: NotificationIntake
    /// The service's metrics, recording this app's work under its `app` label.
    let metrics: ServiceMetrics
    /// This app's job handlers by kind (the one worker runs every app's jobs: ``AppJobRouter``).
    let jobHandlers: [String: any JobHandler]

    /// The app's bundle id: its name everywhere (rows, tokens, the `Verdict-App` header, metrics).
    public var bundleId: String { configuration.bundleId }
    /// The app's active rule bundle.
    public var rules: BundleStore { rulesReloader.store }

    /// The parts that every app shares, handed to each app's context.
    struct Shared {
        var service: ServiceConfiguration
        var database: any VerdictRepository
        var metrics: ServiceMetrics
        var signal: JobSignal
        var notificationHandlers: [any NotificationHandler]
        var appStoreTransport: (any AppStoreHTTPTransport)?
        var logger: Logger
        var now: @Sendable () -> Date
    }

    init(_ configuration: AppConfiguration, shared: Shared) throws {
        let service = shared.service
        let metrics = shared.metrics.forApp(configuration.bundleId)
        self.metrics = metrics
        let now = shared.now
        var logger = shared.logger
        logger[metadataKey: "app"] = .string(configuration.bundleId)
        self.configuration = configuration
        let repository = shared.database.scoped(to: configuration.bundleId)
        self.repository = repository
        verifier = try SignedDataVerifier(
            rootCertificates: service.rootCertificates, bundleId: configuration.bundleId,
            appAppleId: configuration.appAppleId, environments: configuration.environments,
            onlineChecks: service.onlineChecks,
            ocspRequester: service.onlineChecks ? AsyncHTTPClientOCSPRequester() : nil)
        // A bundle refused at start leaves no bundle: /readyz reports not ready until a good one loads.
        rulesReloader = RulesReloader(
            store: BundleStore(), directory: configuration.rulesDirectory, metrics: metrics, logger: logger, now: now)
        let appStore = AppStoreAPIAccess(configuration: configuration, metrics: metrics, transport: shared.appStoreTransport)
        self.appStore = appStore
        if let reason = appStore.unavailableReason {
            logger.notice("App Store Server API unavailable: \(reason)")
        }
        let signer = OfferSigner(configuration: configuration, repository: repository, now: now)
        offerSigner = signer
        let rules = rulesReloader.store
        let webhooks = configuration.webhookURL != nil
        let offerDecider = OfferDecider(repository: repository, rules: rules, webhooks: webhooks, metrics: metrics, now: now)
        self.offerDecider = offerDecider
        let refundDecider = RefundDecider(
            repository: repository, rules: rules, assumeConsent: configuration.assumeConsent, metrics: metrics, now: now)
        self.refundDecider = refundDecider
        let approvedMessages = ApprovedMessageCache(repository: repository)
        self.approvedMessages = approvedMessages
        retentionDecider = RetentionDecider(
            repository: repository, rules: rules, offerDecider: offerDecider, signer: signer, approvals: approvedMessages,
            metrics: metrics, deadline: service.retentionDeadline, logger: logger, now: now)
        let verifier = self.verifier
        intake = NotificationIntake(verifier: verifier, repository: repository, metrics: metrics, jobSignal: shared.signal, now: now)
        let handlers: [any JobHandler] = [
            NotificationProcessor(
                repository: repository, handlers: [
                    OfferNotificationHandler(decider: offerDecider),
                    OfferOutcomeHandler(repository: repository, attributionWindow: service.attributionWindow.wholeMilliseconds, now: now),
                    OfferRevenueHandler(repository: repository, window: service.revenueWindow.wholeMilliseconds, now: now),
                    ConsumptionRequestHandler(
                        decider: refundDecider, repository: repository, grace: service.consumptionGrace.wholeMilliseconds,
                        webhooks: webhooks),
                    RefundOutcomeHandler(repository: repository),
                ] + shared.notificationHandlers, historySync: appStore.isAvailable,
                historyWait: service.historyWait.wholeMilliseconds, now: now),
            ConsumptionSubmissionJob(repository: repository, appStore: appStore, metrics: metrics, now: now),
            HistorySyncJob(repository: repository, verifier: verifier, appStore: appStore, now: now),
            WebhookDelivery(url: configuration.webhookURL, secret: configuration.webhookSecret, app: configuration.bundleId, now: now),
            RuleReplayJob(repository: repository, rules: rules, leaseMilliseconds: service.workerLease.wholeMilliseconds, now: now),
        ]
        jobHandlers = Dictionary(handlers.map { ($0.kind, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
