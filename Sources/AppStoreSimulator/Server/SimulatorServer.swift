import AppStoreServer
import Foundation
import Hummingbird
import Logging
import Synchronization

/// The simulated App Store as an HTTP server (Hummingbird 2): the App Store Server API under
/// Apple's paths (`/inApps/…`) and the control API (`/simulator/…`, see `ControlRoutes`).
///
/// One server serves one or several apps (``SimulatorApp``: a ``SimulatorStore`` of its own, with
/// the app's configuration, issued In-App Purchase key and subscribers, and its own
/// ``NotificationDeliverer``). The apps share the PKI (every payload chains to one root, as all of
/// Apple's chain to Apple's root), the clock, rate limits and faults. An API request reaches the
/// app its bearer token's `bid` names, and only with that app's key; a control request reaches the
/// first app, or the one its `?bundleId=` names. The server numbers its apps' ids apart (the
/// second app's transaction ids start at `2001000000000001`), so a transaction id or notification
/// UUID never means two things, as at Apple.
///
/// Run it in-process with ``start()`` (port 0 picks a free port; the bound port is returned and
/// available as ``port``/``baseURL``) and ``stop()``, or as a process with ``run()``, which
/// serves until SIGINT or SIGTERM.
public final class SimulatorServer: Sendable {
    /// Which clock API bearer tokens' `exp`/`iat` are checked against.
    public enum TokenClock: String, Sendable, Codable {
        /// The simulator's clock (Apple's behaviour, with simulated time).
        case simulated
        /// The machine's real clock, so clients that stamp tokens with real time keep working
        /// after the simulated clock was advanced.
        case wall
    }

    /// The apps served, the first being the one control routes act for by default.
    public let apps: [SimulatorApp]
    /// Per-endpoint rate limits, configurable at runtime (shared by the apps).
    public let rateLimiter: RateLimiter
    /// Injected faults, configurable at runtime (shared by the apps).
    public let faults: FaultInjector
    /// Interface to bind.
    public let host: String
    /// Requested port (0: any free port).
    public let requestedPort: Int

    private let tokenClockSetting: Mutex<TokenClock>
    private let logger: Logger
    private let running = Mutex<(task: Task<Void, any Error>?, port: Int?)>((nil, nil))

    /// A server for several apps. `apps` must be non-empty, name distinct bundle ids, and share one
    /// PKI and one clock. Each app's deliverer is attached to its store; the n-th app issues ids
    /// in the n-th block (so pass stores no scenario has run on yet).
    public init(
        apps: [SimulatorApp],
        host: String = "127.0.0.1",
        port: Int = 0,
        tokenClock: TokenClock = .simulated,
        logger: Logger? = nil
    ) async {
        precondition(!apps.isEmpty, "a simulator serves at least one app")
        precondition(Set(apps.map(\.bundleId)).count == apps.count, "every app needs its own bundle id")
        let first = apps[0].store
        precondition(apps.allSatisfy { $0.store.clock === first.clock }, "the apps must share one SimulatorClock")
        precondition(apps.allSatisfy { $0.store.pki.rootCertificateDER == first.pki.rootCertificateDER },
                     "the apps must share one SimulatorPKI")
        precondition(apps.count < 1000, "at most 999 apps")
        self.apps = apps
        self.rateLimiter = RateLimiter()
        self.faults = FaultInjector()
        self.host = host
        self.requestedPort = port
        self.tokenClockSetting = Mutex(tokenClock)
        self.logger = logger ?? Self.quietLogger
        for (index, app) in apps.enumerated() {
            if index > 0 { await app.store.setIdentifierNamespace(index) }
            let deliverer = app.deliverer
            await app.store.setNotificationSink { notification in await deliverer.deliver(notification) }
        }
    }

    /// A server for several apps, each with a new deliverer (see ``init(apps:host:port:tokenClock:logger:)``).
    public convenience init(
        stores: [SimulatorStore],
        host: String = "127.0.0.1",
        port: Int = 0,
        tokenClock: TokenClock = .simulated,
        logger: Logger? = nil
    ) async {
        await self.init(apps: stores.map { SimulatorApp(store: $0) }, host: host, port: port,
                        tokenClock: tokenClock, logger: logger)
    }

    /// A server for `store`. The deliverer is created (and attached to the store) unless given.
    public convenience init(
        store: SimulatorStore,
        deliverer: NotificationDeliverer? = nil,
        host: String = "127.0.0.1",
        port: Int = 0,
        tokenClock: TokenClock = .simulated,
        logger: Logger? = nil
    ) async {
        await self.init(apps: [SimulatorApp(store: store, deliverer: deliverer)], host: host, port: port,
                        tokenClock: tokenClock, logger: logger)
    }

    /// The first app's state.
    public var store: SimulatorStore { apps[0].store }

    /// Delivers the first app's notifications.
    public var deliverer: NotificationDeliverer { apps[0].deliverer }

    /// The app with `bundleId`, if served.
    public func app(bundleId: String) -> SimulatorApp? {
        apps.first { $0.bundleId == bundleId }
    }

    /// The default logger: critical messages only, because an in-process server stopped by
    /// cancellation logs every open connection it drops (pass a logger to see more).
    static var quietLogger: Logger {
        var logger = Logger(label: "verdict.simulator")
        logger.logLevel = .critical
        return logger
    }

    /// Which clock API tokens are checked against.
    public var tokenClock: TokenClock {
        get { tokenClockSetting.withLock { $0 } }
        set { tokenClockSetting.withLock { $0 = newValue } }
    }

    /// The bound port while running.
    public var port: Int? { running.withLock { $0.port } }

    /// `http://host:port` while running.
    public var baseURL: URL? { port.map { URL(string: "http://\(host):\($0)")! } }

    /// Starts serving in the background and returns the bound port.
    @discardableResult
    public func start() async throws -> Int {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let application = makeApplication { port in continuation.yield(port) }
        let task = Task {
            defer { continuation.finish() }
            try await application.run()
        }
        running.withLock { $0.task = task }
        for await port in stream {
            running.withLock { $0.port = port }
            return port
        }
        try await task.value
        throw SimulatorServerError.notStarted
    }

    /// Stops a server started with ``start()`` and its apps' deliverers.
    public func stop() async {
        let task = running.withLock { state -> Task<Void, any Error>? in
            let task = state.task
            state = (nil, nil)
            return task
        }
        task?.cancel()
        _ = try? await task?.value
        await shutDownDeliverers()
    }

    /// Serves in the foreground until SIGINT or SIGTERM; `onRunning` receives the bound port.
    public func run(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let application = makeApplication { [self] port in
            running.withLock { $0.port = port }
            await onRunning(port)
        }
        try await application.runService()
        await shutDownDeliverers()
    }

    private func shutDownDeliverers() async {
        for app in apps { await app.deliverer.shutdown() }
    }

    private func makeApplication(onPort: @escaping @Sendable (Int) async -> Void)
        -> some ApplicationProtocol
    {
        let router = Router(context: SimulatorRequestContext.self)
        let clock = store.clock
        APIPipeline(
            apps: apps, rateLimiter: rateLimiter, faults: faults, clock: clock,
            tokenClock: { [self] in tokenClock == .wall ? Date() : clock.now },
            logger: logger
        ).register(on: router)
        ControlRoutes(server: self).register(on: router)
        OCSPRoutes(server: self).register(on: router)
        return Application(
            router: router,
            configuration: .init(address: .hostname(host, port: requestedPort), serverName: nil),
            onServerRunning: { channel in await onPort(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }
}

/// Errors starting a ``SimulatorServer``.
public enum SimulatorServerError: Error, Equatable, Sendable {
    /// The server stopped before it was listening.
    case notStarted
}
