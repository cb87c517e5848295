import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOCore
import ServiceLifecycle
import VerdictStorage

extension VerdictServer {
    /// The Hummingbird application: the router on the configured address, with the job worker,
    /// reconciliation and the rules watcher as services. `onServerRunning` receives the bound port;
    /// `reloadOnHangup` makes SIGHUP reload the rules (`verdict serve`).
    public func makeApplication(
        port: Int? = nil,
        reloadOnHangup: Bool = false,
        services: [any Service] = [],
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
        // Given services (the trace exporter) stop last, after everything that records spans.
        for service in services { application.addServices(service) }
        application.addServices(RepositoryLifecycle(repository: database))
        application.addServices(schema)
        application.addServices(readiness)
        application.addServices(worker)
        for app in apps.all {
            var logger = logger
            logger[metadataKey: "app"] = .string(app.bundleId)
            application.addServices(ReconciliationService(
                intake: app.intake, repository: app.repository, appStore: app.appStore,
                environments: app.configuration.environments, interval: configuration.reconcileInterval, logger: logger, now: now
            ))
        }
        application.addServices(RulesWatcher(
            reloaders: apps.all.map(\.rulesReloader),
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
