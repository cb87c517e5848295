import AppStoreServer
import AppStoreServerHTTP
import Foundation
import Logging
import VerdictStorage

/// A configured Verdict service: its database, its apps (each with its own verifier, rules, key,
/// deciders and webhook: ``AppContext``), the job worker and the HTTP routes.
///
/// ``open(configuration:logger:notificationHandlers:appStoreTransport:now:)`` opens the database
/// and applies migrations, builds every app's context (loading its rules), and the process-wide
/// parts; ``makeApplication(port:reloadOnHangup:onServerRunning:)`` wraps them in a Hummingbird
/// application whose services (job worker, reconciliation, rules watchers) run with the server and
/// stop gracefully with it.
public final class VerdictServer: Sendable {
    public let configuration: ServiceConfiguration
    /// Every configured app, in configuration order.
    public let apps: AppDirectory
    /// The database acting for no app: what is process-wide (the job queue, readiness, console
    /// sessions, signature nonces). Each app reads and writes its rows through its own context.
    let database: any VerdictRepository
    public let metrics: ServiceMetrics
    public let signal: JobSignal
    /// Runs every app's jobs (each job says its app: ``AppJobRouter``).
    public let worker: JobWorker
    /// Applies the migrations later when the database was away at start.
    let schema: SchemaMigration
    /// Checks the database in the background for `/readyz`.
    let readiness: ReadinessMonitor
    let logger: Logger
    let now: @Sendable () -> Date

    init(configuration: ServiceConfiguration, database: any VerdictRepository, apps: AppDirectory, metrics: ServiceMetrics,
         signal: JobSignal, schemaMigrated: Bool, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.database = database
        self.apps = apps
        self.metrics = metrics
        self.signal = signal
        self.logger = logger
        self.now = now
        // Every app's repository migrates, the first first: rows a database kept from before apps
        // become the app's their notifications name.
        let schema = SchemaMigration(repositories: apps.all.map(\.repository), migrated: schemaMigrated, logger: logger)
        self.schema = schema
        self.readiness = ReadinessMonitor(
            repository: database, checkTimeout: configuration.databaseTimeout,
            countsWaitingSubmissions: apps.all.contains { !$0.appStore.isAvailable }, now: now)
        self.worker = JobWorker(
            repository: database, handlers: AppJobRouter.handlers(for: apps), metrics: metrics, signal: signal,
            concurrency: configuration.workerConcurrency, leaseMilliseconds: configuration.workerLease.wholeMilliseconds,
            logger: logger, now: now,
            ready: { await schema.waitUntilMigrated() }
        )
    }

    /// Opens the database (applying migrations), builds every app's context (loading its rules)
    /// and the service. A PostgreSQL server that cannot be reached (or is recovering) does not fail
    /// it: the service starts not ready and migrates once the server answers (``SchemaMigration``).
    /// Its metrics go to `metricsBackend` (by default one of its own; a served process passes the
    /// process-wide one, ``PrometheusMetricsBackend/bootstrapProcessWide(exportingTo:)``).
    public static func open(
        configuration: ServiceConfiguration,
        logger: Logger,
        metricsBackend: PrometheusMetricsBackend = PrometheusMetricsBackend(),
        notificationHandlers: [any NotificationHandler] = [],
        appStoreTransport: (any AppStoreHTTPTransport)? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws -> VerdictServer {
        let metrics = ServiceMetrics(backend: metricsBackend)
        let (database, migrated) = try await openDatabase(configuration, logger: logger)
        let signal = JobSignal()
        let shared = AppContext.Shared(
            service: configuration, database: database, metrics: metrics, signal: signal,
            notificationHandlers: notificationHandlers, appStoreTransport: appStoreTransport, logger: logger, now: now)
        let contexts: [AppContext]
        do {
            contexts = try configuration.apps.map { try AppContext($0, shared: shared) }
        } catch {
            try? await database.shutdown()
            throw error
        }
        for app in contexts { app.rulesReloader.reload(reason: "start") }
        if contexts.count > 1 {
            for app in contexts where app.configuration.appAppleId == nil {
                logger.notice("no appAppleId: with several apps, its cancel-page (realtime) requests are not answered",
                              metadata: ["app": .string(app.bundleId)])
            }
        }
        let server = VerdictServer(
            configuration: configuration, database: database, apps: AppDirectory(contexts), metrics: metrics, signal: signal,
            schemaMigrated: migrated, logger: logger, now: now)
        // The database answered a moment ago: `/readyz` knows it from the first request on.
        if migrated { await server.readiness.refresh() }
        return server
    }

    /// Closes the database (commands that open the service without serving it).
    public func shutdown() async throws {
        try await database.shutdown()
    }

    /// Opens the database and migrates it through each app's repository, the first first (the app
    /// that rows from before apps name adopts them); a PostgreSQL server that is down or recovering
    /// at start leaves it to ``SchemaMigration`` (false). Returns the database acting for no app.
    private static func openDatabase(
        _ configuration: ServiceConfiguration, logger: Logger
    ) async throws -> (any VerdictRepository, migrated: Bool) {
        let timeout = configuration.databaseTimeout
        var options = StorageOptions(connectTimeout: min(timeout, .seconds(10)), operationTimeout: timeout)
        let waitsForDatabase = if case .postgres = configuration.databaseURL { true } else { false }
        var migrated = true
        func migrateLater(_ error: StorageError) {
            logger.warning("the database is unavailable at start; serving as not ready until it answers",
                           metadata: ["error": "\(StorageErrorText.describe(error))"])
            migrated = false
        }
        let database: any VerdictRepository
        do {
            database = try await RepositoryFactory.open(databaseURL: configuration.databaseURL, options: options, logger: logger)
        } catch let error as StorageError where error.isUnavailable && waitsForDatabase {
            migrateLater(error)
            options.connectOnOpen = false
            database = try await RepositoryFactory.open(databaseURL: configuration.databaseURL, options: options, logger: logger)
        }
        if migrated {
            do {
                for app in configuration.apps { try await database.scoped(to: app.bundleId).migrate() }
            } catch let error as StorageError where error.isUnavailable && waitsForDatabase {
                migrateLater(error)
            } catch {
                try? await database.shutdown()
                throw error
            }
        }
        return (database, migrated)
    }
}
