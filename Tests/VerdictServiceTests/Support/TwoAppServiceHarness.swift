import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Testing
import VerdictService
import VerdictTestSupport

/// Two apps, ``a`` and ``b``, served by one Verdict deployment (real HTTP) and one App Store
/// simulator, on a fresh database of the test's backend: each app has its own simulator key (the
/// service's In-App Purchase key for it), its own rules folder (copies of the shipped rules: B's
/// rule `annual-full-price-payer` is named `annual-full-price-payer-b`, and both cap
/// `lumen-annual-40off` at one grant in 30 days), its own webhook receiver, and a token acting for
/// it alone (``tokens``). Both apps' notifications reach the one `/v1/notifications`.
///
/// The deployment is one service in-process (``Deployment/inProcess``) or two `verdict serve`
/// processes on the one database (``Deployment/twoProcesses``, PostgreSQL): then A's notifications
/// reach the first instance and B's the second, and ``request(_:_:as:body:instance:)`` asks the other one,
/// so every instance handles both apps' traffic and jobs are run by whichever claims them.
struct TwoAppServiceHarness: Sendable {
    static let a = "com.example.a"
    static let b = "com.example.b"
    static let appAppleIds: [String: Int64] = [a: 1_111_111_111, b: 2_222_222_222]
    static let tokens = [a: "token-of-app-a-0123456789", b: "token-of-app-b-0123456789"]

    /// How the two apps are served.
    enum Deployment: String, Sendable, CustomTestStringConvertible {
        case inProcess = "one service in-process"
        case twoProcesses = "two verdict serve processes"
        var testDescription: String { rawValue }
    }

    /// What the end-to-end suites run on: one service on each selected database, and two
    /// processes on PostgreSQL.
    static let setups: [(TestBackend, Deployment)] =
        TestBackend.selected.map { ($0, .inProcess) } + (TestBackend.selected.contains(.postgres) ? [(.postgres, .twoProcesses)] : [])

    let database: TestDatabase
    /// Each instance's base URL (one or two).
    let baseURLs: [String]
    /// Each app's simulated App Store state, by bundle id.
    let stores: [String: SimulatorStore]
    /// Each app's webhook receiver, by bundle id.
    let webhooks: [String: WebhookReceiver]

    /// The instance that receives `app`'s notifications.
    func deliveryURL(of app: String) -> String { baseURLs[app == Self.a ? 0 : baseURLs.count - 1] }
    /// The instance that answers `app`'s API requests (the other one, with two).
    func apiURL(of app: String) -> String { baseURLs[app == Self.a ? baseURLs.count - 1 : 0] }

    /// Sends a request with the token of `app`, to the instance answering `app`'s requests (or to
    /// instance `instance`, modulo the number of instances).
    func request(
        _ method: HTTPMethod, _ path: String, as app: String, body: Data? = nil, instance: Int? = nil
    ) async throws -> (status: Int, body: Data) {
        let baseURL = instance.map { baseURLs[$0 % baseURLs.count] } ?? apiURL(of: app)
        return try await HTTP.send(method, baseURL + path, body: body, token: Self.tokens[app])
    }

    /// Plays `scenario` on `app`'s simulated App Store and waits until the service processed the
    /// notification it delivered.
    @discardableResult
    func settled(_ app: String, _ scenario: (SimulatorStore) async throws -> ScenarioResult) async throws -> ScenarioResult {
        let result = try await scenario(try #require(stores[app]))
        let uuid = result.notification.notificationUUID
        let deadline = ContinuousClock.now + .seconds(45)
        while ContinuousClock.now < deadline {
            let (status, body) = try await request(.GET, "/v1/notifications/\(uuid)", as: app)
            if status == 200, JSONValue.parse(body)?.objectValue?["state"]?.stringValue == "processed" { return result }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ServiceTestError("\(app)'s notification \(uuid) was not processed in time")
    }

    /// Runs `body` with a fresh two-app deployment on `backend`.
    static func with(
        _ backend: TestBackend, _ deployment: Deployment = .inProcess, _ body: (TwoAppServiceHarness) async throws -> Void
    ) async throws {
        try await WebhookReceiver.with(failFirst: 0) { receiverA, urlA in
            try await WebhookReceiver.with(failFirst: 0) { receiverB, urlB in
                try await TestDatabase.with(backend) { database in
                    try await run(database, deployment, webhooks: [a: (receiverA, urlA), b: (receiverB, urlB)], body)
                }
            }
        }
    }

    private static func run(
        _ database: TestDatabase, _ deployment: Deployment, webhooks: [String: (WebhookReceiver, URL)],
        _ body: (TwoAppServiceHarness) async throws -> Void
    ) async throws {
        let clock = SimulatorClock(frozenAt: Date(appStoreMilliseconds: Date().appStoreMilliseconds / 1000 * 1000))
        let pki = try SimulatorPKI()
        let stores = [a, b].map {
            SimulatorStore(configuration: SimulatorAppConfiguration(bundleId: $0, appAppleId: appAppleIds[$0], environment: .sandbox),
                           pki: pki, clock: clock)
        }
        let simulator = await SimulatorServer(stores: stores)
        let simulatorURL = "http://127.0.0.1:\(try await simulator.start())"
        do {
            let settings = try settings(database, stores: stores, pki: pki, simulatorURL: simulatorURL, webhooks: webhooks.mapValues(\.1))
            let stores = Dictionary(uniqueKeysWithValues: stores.map { ($0.configuration.bundleId, $0) })
            let receivers = webhooks.mapValues(\.0)
            func served(_ baseURLs: [String]) async throws {
                let harness = TwoAppServiceHarness(database: database, baseURLs: baseURLs, stores: stores, webhooks: receivers)
                for app in await simulator.apps {
                    await app.deliverer.setDeliveryURL(URL(string: harness.deliveryURL(of: app.bundleId) + "/v1/notifications"))
                }
                try await body(harness)
            }
            switch deployment {
            case .inProcess:
                let configuration = try ServiceConfiguration(reader: try await ConfigurationSources.reader(environment: settings))
                let service = try await VerdictServer.open(configuration: configuration, logger: TestDatabase.logger)
                let running = try await RunningApplication.start { onServerRunning in
                    try service.makeApplication(port: 0, onServerRunning: onServerRunning)
                }
                do {
                    try await served(["http://127.0.0.1:\(running.port)"])
                } catch {
                    try? await running.stop("the two-app service")
                    throw error
                }
                try await running.stop("the two-app service")
            case .twoProcesses:
                try await ServiceProcess.group { children in
                    let first = try await children.start(settings, directory: database.directory, name: "two-apps")
                    let second = try await children.start(settings, directory: database.directory, name: "two-apps")
                    try await served([first.baseURL, second.baseURL])
                    for child in [first, second] { #expect(try await child.terminate() == 0) }
                }
            }
        } catch {
            await simulator.stop()
            throw error
        }
        await simulator.stop()
    }

    /// The service's `VERDICT_*` settings: a config file naming both apps (each with its rules,
    /// simulator key and webhook) and their tokens.
    private static func settings(
        _ database: TestDatabase, stores: [SimulatorStore], pki: SimulatorPKI, simulatorURL: String, webhooks: [String: URL]
    ) throws -> [String: String] {
        let rootFile = database.directory.appendingPathComponent("root.der")
        try pki.rootCertificateDER.write(to: rootFile)
        var apps: [[String: Any]] = []
        for store in stores {
            let bundleId = store.configuration.bundleId
            let keyFile = database.directory.appendingPathComponent("\(bundleId).p8")
            try Data(store.issuedKey.pemRepresentation.utf8).write(to: keyFile)
            apps.append([
                "bundleId": bundleId, "appAppleId": appAppleIds[bundleId]!, "environments": ["Sandbox"],
                "rules": ["dir": try rules(for: bundleId, in: database.directory)],
                "appstore": ["keyId": store.issuedKey.keyId, "issuerId": store.issuedKey.issuerId,
                             "privateKeyFile": keyFile.path, "apiUrl": simulatorURL],
                "webhook": ["url": webhooks[bundleId]!.absoluteString, "secret": "webhook-secret-of-\(bundleId)"],
            ])
        }
        let tokens: [[String: Any]] = [a, b].map { ["token": Self.tokens[$0]!, "role": "operator", "apps": [$0]] }
        let file = database.directory.appendingPathComponent("verdict.json")
        try JSONSerialization.data(withJSONObject: ["apps": apps, "apiTokens": tokens]).write(to: file)
        return [
            "VERDICT_DATABASE_URL": database.url, "VERDICT_CONFIG_FILE": file.path,
            "VERDICT_ROOT_CERTIFICATES": rootFile.path, "VERDICT_RECONCILE_INTERVAL": "0", "VERDICT_CONSUMPTION_GRACE": "0",
            "VERDICT_WORKER_LEASE": "120", "VERDICT_DATABASE_TIMEOUT": "60", "VERDICT_LOG_LEVEL": "warning",
        ]
    }

    /// A copy of the shipped rules for `bundleId` (see the type's description).
    private static func rules(for bundleId: String, in directory: URL) throws -> String {
        let folder = directory.appendingPathComponent("rules-\(bundleId)")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: ServiceHarness.rulesDirectory), to: folder)
        for name in ["retention.rules.yaml", "retention.tests.yaml"] {
            let file = folder.appendingPathComponent(name)
            var text = try String(contentsOf: file, encoding: .utf8)
            text = text.replacingOccurrences(
                of: "lumen-annual-40off: {max: 1000, within: 30d}", with: "lumen-annual-40off: {max: 1, within: 30d}")
            if bundleId == b { text = text.replacingOccurrences(of: "annual-full-price-payer", with: "annual-full-price-payer-b") }
            try Data(text.utf8).write(to: file)
        }
        return folder.path
    }
}
