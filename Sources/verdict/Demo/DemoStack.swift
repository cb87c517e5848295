import AppStoreServer
import AppStoreSimulator
import Configuration
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals
import VerdictService

/// The App Store simulator and the Verdict service running in this process, wired together the
/// way a real deployment is wired to Apple, for two apps at once: the simulator serves each app
/// (``DemoApp``) from a store of its own with its own issued In-App Purchase key; the service lists
/// each app in its config file's `"apps"` with its rules and that key (the App Store Server API
/// pointed at the simulator), trusts the simulator's root certificate, and receives every app's
/// signed notifications on its one `/v1/notifications`. Everything lives in a fresh temporary
/// folder (SQLite database, config file, root certificate, keys) that ``cleanUp()`` removes.
///
/// The service runs in a `ServiceGroup`, so ``shutdown()`` — or one of the signals given to
/// ``start(_:logger:shutdownSignals:)`` — stops it gracefully (the job worker finishes, the
/// database is closed last); ``waitUntilStopped()`` returns once it has.
final class DemoStack: Sendable {
    /// What the demo starts.
    struct Settings: Sendable {
        /// The service's port (0: any free port).
        var port: Int
        /// The simulator's port (0: any free port).
        var simulatorPort: Int
        /// The apps served (at least one; the first is the one ``client`` acts for).
        var apps: [DemoApp]
        /// The service's log level (`VERDICT_LOG_LEVEL`).
        var logLevel: Logger.Level
        /// OpenTelemetry's exporters, when the `OTEL_*` variables ask for them (run with the service).
        var telemetry = Telemetry.Exporters()
    }

    /// The apps served, in the configuration's order.
    let apps: [DemoApp]
    /// Each app's simulated App Store state (in the order of ``apps``): the scenario plays on it.
    let stores: [SimulatorStore]
    /// The simulator's HTTP server.
    let simulator: SimulatorServer
    /// The Verdict service.
    let service: VerdictServer
    /// Calls to the service (with ``token``, which acts for the first app only) and to the simulator.
    let client: DemoClient
    /// A token that acts for every app: a request about one app as a whole names it with the
    /// `Verdict-App` header (the console shows every app to it).
    let sharedToken: String
    /// The temporary folder holding the database, the config file, the root certificate and the keys.
    let directory: URL
    /// The service's `VERDICT_*` settings as given to it (besides the config file).
    let environment: [String: String]
    /// The config file listing the apps and the tokens.
    let configFile: URL

    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// `http://127.0.0.1:<port>` of the service.
    var serviceURL: String { client.serviceURL }
    /// `http://127.0.0.1:<port>` of the simulator.
    var simulatorURL: String { client.simulatorURL }
    /// The generated API token the first app's backend sends as `Authorization: Bearer …`.
    var token: String { client.token }
    /// The first app's simulated App Store state.
    var store: SimulatorStore { stores[0] }

    /// The simulated App Store state of `app`.
    func store(of app: DemoApp) -> SimulatorStore {
        stores[apps.firstIndex(of: app) ?? 0]
    }

    private init(apps: [DemoApp], stores: [SimulatorStore], simulator: SimulatorServer, service: VerdictServer,
                 client: DemoClient, sharedToken: String, directory: URL, configuration: (environment: [String: String], file: URL),
                 group: ServiceGroup, running: Task<Void, any Error>) {
        self.apps = apps
        self.stores = stores
        self.simulator = simulator
        self.service = service
        self.client = client
        self.sharedToken = sharedToken
        self.directory = directory
        self.environment = configuration.environment
        self.configFile = configuration.file
        self.group = group
        self.running = running
    }

    /// Starts the simulator, then the service, and points every app's deliveries at the service's
    /// `/v1/notifications`. On failure everything started so far is stopped and the folder removed.
    static func start(_ settings: Settings, logger: Logger, shutdownSignals: [UnixSignal] = []) async throws -> DemoStack {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("verdict-demo-\(UUID().uuidString.prefix(8).lowercased())", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Frozen (at a whole second) like the tests: the scenario advances it between steps, so
        // every signedDate is later than the one before and ids and dates are reproducible.
        let clock = SimulatorClock(frozenAt: Date(appStoreMilliseconds: Date().appStoreMilliseconds / 1000 * 1000))
        // One PKI for every app (as Apple signs every app's payloads under its one root); a key each.
        let pki = try SimulatorPKI()
        let stores = settings.apps.map { app in
            SimulatorStore(
                configuration: SimulatorAppConfiguration(bundleId: app.bundleId, appAppleId: app.appAppleId, environment: .sandbox),
                pki: pki, clock: clock)
        }
        // The simulator logs the connections it drops when stopped at error level: only shown
        // when the service's logs are.
        var simulatorLogger = Logger(label: "verdict.simulator")
        simulatorLogger.logLevel = settings.logLevel == .error ? .critical : settings.logLevel
        // The service stamps its API tokens with the real time; the simulated clock runs ahead.
        let simulator = await SimulatorServer(
            stores: stores, port: settings.simulatorPort, tokenClock: .wall, logger: simulatorLogger)
        let simulatorPort: Int
        do {
            simulatorPort = try await simulator.start()
        } catch {
            await simulator.stop()
            try? FileManager.default.removeItem(at: directory)
            throw DemoError("the App Store simulator cannot listen on 127.0.0.1:\(settings.simulatorPort): \(error)")
        }
        let simulatorURL = "http://127.0.0.1:\(simulatorPort)"
        do {
            let tokens = DemoConfiguration.Tokens(firstApp: DemoConfiguration.newToken(), shared: DemoConfiguration.newToken())
            let written = try DemoConfiguration.write(
                apps: Array(zip(settings.apps, stores)), tokens: tokens, logLevel: settings.logLevel,
                directory: directory, simulatorURL: simulatorURL)
            // A refused setting (e.g. --rules-dir naming a file) propagates as the ConfigurationError it is.
            let configuration = try ServiceConfiguration(
                reader: try await ConfigurationSources.reader(environment: written.environment, configFile: written.file.path))
            let service = try await VerdictServer.open(
                configuration: configuration, logger: logger,
                metricsBackend: .bootstrapProcessWide(exportingTo: settings.telemetry.metrics))
            let (group, running, port) = try await run(
                service, port: settings.port, services: settings.telemetry.services, logger: logger, shutdownSignals: shutdownSignals)
            let client = DemoClient(serviceURL: "http://127.0.0.1:\(port)", simulatorURL: simulatorURL, token: tokens.firstApp)
            // Every app's notifications go to the one intake; the service tells the apps apart by the payload.
            for app in simulator.apps {
                await app.deliverer.setDeliveryURL(URL(string: client.serviceURL + "/v1/notifications"))
            }
            return DemoStack(apps: settings.apps, stores: stores, simulator: simulator, service: service, client: client,
                             sharedToken: tokens.shared, directory: directory, configuration: written,
                             group: group, running: running)
        } catch {
            await simulator.stop()
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Runs the service's application in a service group; returns once it listens (with the
    /// bound port), or throws why it could not start.
    private static func run(
        _ service: VerdictServer, port: Int, services: [any Service], logger: Logger, shutdownSignals: [UnixSignal]
    ) async throws -> (ServiceGroup, Task<Void, any Error>, Int) {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let application = try service.makeApplication(port: port, services: services) { bound in continuation.yield(bound) }
        let services: [any Service] = [application]
        var configuration = ServiceGroupConfiguration(
            services: services, gracefulShutdownSignals: shutdownSignals, logger: logger)
        // A connection that never closes must not keep the demo from exiting.
        configuration.maximumGracefulShutdownDuration = .seconds(15)
        let group = ServiceGroup(configuration: configuration)
        let running = Task {
            // The stream ends without a port when the application fails to start.
            defer { continuation.finish() }
            try await group.run()
        }
        for await bound in ports {
            return (group, running, bound)
        }
        do {
            try await running.value
        } catch {
            throw DemoError("the Verdict service cannot listen on 127.0.0.1:\(port): \(error)")
        }
        throw DemoError("the Verdict service stopped before it was listening")
    }

    /// Asks the service to stop gracefully (as SIGINT does).
    func shutdown() async {
        await group.triggerGracefulShutdown()
    }

    /// Waits until the service has stopped; returns the error it stopped with, if any.
    @discardableResult
    func waitUntilStopped() async -> (any Error)? {
        do {
            try await running.value
            return nil
        } catch {
            return error
        }
    }

    /// Stops the simulator and removes the temporary folder (call after the service stopped).
    func cleanUp() async {
        await simulator.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
