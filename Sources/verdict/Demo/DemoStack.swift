import AppStoreServer
import AppStoreSimulator
import Configuration
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals
import VerdictService

/// The App Store simulator and the Verdict service running in this process, wired together the
/// way a real deployment is wired to Apple: the service trusts the simulator's root certificate,
/// uses the simulator's issued In-App Purchase key for the App Store Server API (pointed at the
/// simulator), and the simulator delivers its signed notifications to the service's
/// `/v1/notifications`. Everything lives in a fresh temporary folder (SQLite database, root
/// certificate, key) that ``cleanUp()`` removes.
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
        /// The rule bundle folder (absolute).
        var rulesDirectory: String
        /// The service's log level (`VERDICT_LOG_LEVEL`).
        var logLevel: Logger.Level
        /// The simulated app.
        var bundleId = "com.lumen.app"
        /// The simulated app's Apple ID.
        var appAppleId: Int64 = 1_234_567_890
    }

    /// The simulated App Store's state: the scenario plays on it.
    let store: SimulatorStore
    /// The simulator's HTTP server.
    let simulator: SimulatorServer
    /// The Verdict service.
    let service: VerdictServer
    /// Calls to the service (with ``token``) and to the simulator.
    let client: DemoClient
    /// The temporary folder holding the database, the root certificate and the key.
    let directory: URL
    /// The service's `VERDICT_*` settings as given to it.
    let environment: [String: String]

    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// `http://127.0.0.1:<port>` of the service.
    var serviceURL: String { client.serviceURL }
    /// `http://127.0.0.1:<port>` of the simulator.
    var simulatorURL: String { client.simulatorURL }
    /// The generated API token app backends send as `Authorization: Bearer …`.
    var token: String { client.token }

    private init(store: SimulatorStore, simulator: SimulatorServer, service: VerdictServer, client: DemoClient,
                 directory: URL, environment: [String: String], group: ServiceGroup, running: Task<Void, any Error>) {
        self.store = store
        self.simulator = simulator
        self.service = service
        self.client = client
        self.directory = directory
        self.environment = environment
        self.group = group
        self.running = running
    }

    /// Starts the simulator, then the service, and points the simulator's deliveries at the
    /// service. On failure everything started so far is stopped and the folder removed.
    static func start(_ settings: Settings, logger: Logger, shutdownSignals: [UnixSignal] = []) async throws -> DemoStack {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("verdict-demo-\(UUID().uuidString.prefix(8).lowercased())", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Frozen (at a whole second) like the tests: the scenario advances it between steps, so
        // every signedDate is later than the one before and ids and dates are reproducible.
        let clock = SimulatorClock(frozenAt: Date(appStoreMilliseconds: Date().appStoreMilliseconds / 1000 * 1000))
        let store = SimulatorStore(
            configuration: SimulatorAppConfiguration(
                bundleId: settings.bundleId, appAppleId: settings.appAppleId, environment: .sandbox),
            pki: try SimulatorPKI(), clock: clock)
        // The simulator logs the connections it drops when stopped at error level: only shown
        // when the service's logs are.
        var simulatorLogger = Logger(label: "verdict.simulator")
        simulatorLogger.logLevel = settings.logLevel == .error ? .critical : settings.logLevel
        // The service stamps its API tokens with the real time; the simulated clock runs ahead.
        let simulator = await SimulatorServer(
            store: store, port: settings.simulatorPort, tokenClock: .wall, logger: simulatorLogger)
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
            let token = "demo-" + (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max)) }.joined()
            let environment = try writeCredentials(of: store, settings: settings, directory: directory, simulatorURL: simulatorURL, token: token)
            // A refused setting (e.g. --rules-dir naming a file) propagates as the ConfigurationError it is.
            let configuration = try ServiceConfiguration(reader: try await ConfigurationSources.reader(environment: environment))
            let service = try await VerdictServer.open(configuration: configuration, logger: logger)
            let (group, running, port) = try await run(service, port: settings.port, logger: logger, shutdownSignals: shutdownSignals)
            let client = DemoClient(serviceURL: "http://127.0.0.1:\(port)", simulatorURL: simulatorURL, token: token)
            await simulator.deliverer.setDeliveryURL(URL(string: client.serviceURL + "/v1/notifications"))
            return DemoStack(store: store, simulator: simulator, service: service, client: client, directory: directory,
                             environment: environment, group: group, running: running)
        } catch {
            await simulator.stop()
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Writes the simulator's root certificate and issued key into `directory`; returns the
    /// service's `VERDICT_*` settings that use them.
    private static func writeCredentials(
        of store: SimulatorStore, settings: Settings, directory: URL, simulatorURL: String, token: String
    ) throws -> [String: String] {
        let rootFile = directory.appendingPathComponent("simulator-root.der")
        try store.pki.rootCertificateDER.write(to: rootFile)
        let keyFile = directory.appendingPathComponent("SubscriptionKey_\(store.issuedKey.keyId).p8")
        try Data(store.issuedKey.pemRepresentation.utf8).write(to: keyFile)
        return [
            "VERDICT_DATABASE_URL": "sqlite:" + directory.appendingPathComponent("verdict.sqlite").path,
            "VERDICT_RULES_DIR": settings.rulesDirectory,
            "VERDICT_BUNDLE_ID": settings.bundleId,
            "VERDICT_APP_APPLE_ID": String(settings.appAppleId),
            "VERDICT_ENVIRONMENTS": AppStoreEnvironment.sandbox.rawValue,
            "VERDICT_ROOT_CERTIFICATES": rootFile.path,
            "VERDICT_APPSTORE_KEY_ID": store.issuedKey.keyId,
            "VERDICT_APPSTORE_ISSUER_ID": store.issuedKey.issuerId,
            "VERDICT_APPSTORE_PRIVATE_KEY_FILE": keyFile.path,
            "VERDICT_APPSTORE_API_URL": simulatorURL,
            "VERDICT_API_TOKENS": token,
            "VERDICT_RECONCILE_INTERVAL": "0",
            // The demo's app backend reports its facts before Apple asks: nothing to wait for.
            "VERDICT_CONSUMPTION_GRACE": "0",
            "VERDICT_LOG_LEVEL": settings.logLevel.rawValue,
        ]
    }

    /// Runs the service's application in a service group; returns once it listens (with the
    /// bound port), or throws why it could not start.
    private static func run(
        _ service: VerdictServer, port: Int, logger: Logger, shutdownSignals: [UnixSignal]
    ) async throws -> (ServiceGroup, Task<Void, any Error>, Int) {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let application = try service.makeApplication(port: port) { bound in continuation.yield(bound) }
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
