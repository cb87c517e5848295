import AppStoreServer
import Foundation
import Hummingbird
import Logging
import Synchronization

/// The simulated App Store as an HTTP server (Hummingbird 2): the App Store Server API under
/// Apple's paths (`/inApps/…`) and the control API (`/simulator/…`, see `ControlRoutes`).
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

    /// The state behind the server.
    public let store: SimulatorStore
    /// Delivers the store's notifications.
    public let deliverer: NotificationDeliverer
    /// Per-endpoint rate limits, configurable at runtime.
    public let rateLimiter: RateLimiter
    /// Injected faults, configurable at runtime.
    public let faults: FaultInjector
    /// Interface to bind.
    public let host: String
    /// Requested port (0: any free port).
    public let requestedPort: Int

    private let tokenClockSetting: Mutex<TokenClock>
    private let logger: Logger
    private let running = Mutex<(task: Task<Void, any Error>?, port: Int?)>((nil, nil))

    /// A server for `store`. The deliverer is created (and attached to the store) unless given.
    public init(
        store: SimulatorStore,
        deliverer: NotificationDeliverer? = nil,
        host: String = "127.0.0.1",
        port: Int = 0,
        tokenClock: TokenClock = .simulated,
        logger: Logger? = nil
    ) async {
        self.store = store
        let deliverer = deliverer ?? NotificationDeliverer(store: store)
        self.deliverer = deliverer
        self.rateLimiter = RateLimiter()
        self.faults = FaultInjector()
        self.host = host
        self.requestedPort = port
        self.tokenClockSetting = Mutex(tokenClock)
        self.logger = logger ?? Self.quietLogger
        await store.setNotificationSink { notification in await deliverer.deliver(notification) }
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

    /// Stops a server started with ``start()`` and its deliverer.
    public func stop() async {
        let task = running.withLock { state -> Task<Void, any Error>? in
            let task = state.task
            state = (nil, nil)
            return task
        }
        task?.cancel()
        _ = try? await task?.value
        await deliverer.shutdown()
    }

    /// Serves in the foreground until SIGINT or SIGTERM; `onRunning` receives the bound port.
    public func run(onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let application = makeApplication { [self] port in
            running.withLock { $0.port = port }
            await onRunning(port)
        }
        try await application.runService()
        await deliverer.shutdown()
    }

    private func makeApplication(onPort: @escaping @Sendable (Int) async -> Void)
        -> some ApplicationProtocol
    {
        let router = Router(context: SimulatorRequestContext.self)
        let clock = store.clock
        APIRoutes(
            store: store,
            deliverer: deliverer,
            authenticator: BearerTokenAuthenticator(key: store.issuedKey, bundleId: store.configuration.bundleId),
            rateLimiter: rateLimiter,
            faults: faults,
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
