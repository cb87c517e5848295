import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Foundation
import NIOHTTP1
import Testing
import VerdictService
import VerdictTestSupport

/// Two apps, ``a`` and ``b``, served by one Verdict service (in-process, real HTTP) and one App
/// Store simulator, on a fresh database of the test's backend: each app has its own simulator key
/// (the service's In-App Purchase key for it), its own rules folder (copies of the shipped rules:
/// B's rule `annual-full-price-payer` is named `annual-full-price-payer-b`, and both cap
/// `lumen-annual-40off` at one grant in 30 days), its own webhook receiver, and a token acting for
/// it alone (``tokenA``, ``tokenB``). Both apps' notifications reach the one `/v1/notifications`.
struct TwoAppServiceHarness: Sendable {
    static let a = "com.example.a"
    static let b = "com.example.b"
    static let appAppleIds: [String: Int64] = [a: 1_111_111_111, b: 2_222_222_222]
    static let tokens = [a: "token-of-app-a-0123456789", b: "token-of-app-b-0123456789"]

    let database: TestDatabase
    let service: VerdictServer
    let baseURL: String
    /// Each app's simulated App Store state, by bundle id.
    let stores: [String: SimulatorStore]
    /// Each app's webhook receiver, by bundle id.
    let webhooks: [String: WebhookReceiver]

    /// Sends a request with the token of `app`.
    func request(_ method: HTTPMethod, _ path: String, as app: String, body: Data? = nil) async throws -> (status: Int, body: Data) {
        try await HTTP.send(method, baseURL + path, body: body, token: Self.tokens[app])
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

    /// Runs `body` with a fresh two-app service on `backend`.
    static func with(_ backend: TestBackend, _ body: (TwoAppServiceHarness) async throws -> Void) async throws {
        try await WebhookReceiver.with(failFirst: 0) { receiverA, urlA in
            try await WebhookReceiver.with(failFirst: 0) { receiverB, urlB in
                try await TestDatabase.with(backend) { database in
                    try await run(database, webhooks: [a: (receiverA, urlA), b: (receiverB, urlB)], body)
                }
            }
        }
    }

    private static func run(
        _ database: TestDatabase, webhooks: [String: (WebhookReceiver, URL)], _ body: (TwoAppServiceHarness) async throws -> Void
    ) async throws {
        let clock = SimulatorClock(frozenAt: Date(appStoreMilliseconds: Date().appStoreMilliseconds / 1000 * 1000))
        let pki = try SimulatorPKI()
        let stores = [a, b].map {
            SimulatorStore(configuration: SimulatorAppConfiguration(bundleId: $0, appAppleId: appAppleIds[$0], environment: .sandbox),
                           pki: pki, clock: clock)
        }
        let simulator = await SimulatorServer(stores: stores)
        let simulatorURL = "http://127.0.0.1:\(try await simulator.start())"
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
                "webhook": ["url": webhooks[bundleId]!.1.absoluteString, "secret": "webhook-secret-of-\(bundleId)"],
            ])
        }
        let tokens: [[String: Any]] = [a, b].map { ["token": Self.tokens[$0]!, "role": "operator", "apps": [$0]] }
        let file = database.directory.appendingPathComponent("verdict.json")
        try JSONSerialization.data(withJSONObject: ["apps": apps, "apiTokens": tokens]).write(to: file)
        let settings = [
            "VERDICT_DATABASE_URL": database.url, "VERDICT_CONFIG_FILE": file.path,
            "VERDICT_ROOT_CERTIFICATES": rootFile.path, "VERDICT_RECONCILE_INTERVAL": "0", "VERDICT_CONSUMPTION_GRACE": "0",
            "VERDICT_WORKER_LEASE": "120", "VERDICT_DATABASE_TIMEOUT": "60", "VERDICT_LOG_LEVEL": "critical",
        ]
        let configuration = try ServiceConfiguration(reader: try await ConfigurationSources.reader(environment: settings))
        let service = try await VerdictServer.open(configuration: configuration, logger: TestDatabase.logger)
        let running = try await RunningApplication.start { onServerRunning in
            try service.makeApplication(port: 0, onServerRunning: onServerRunning)
        }
        let baseURL = "http://127.0.0.1:\(running.port)"
        for app in await simulator.apps {
            await app.deliverer.setDeliveryURL(URL(string: baseURL + "/v1/notifications"))
        }
        let harness = TwoAppServiceHarness(
            database: database, service: service, baseURL: baseURL,
            stores: Dictionary(uniqueKeysWithValues: stores.map { ($0.configuration.bundleId, $0) }),
            webhooks: webhooks.mapValues(\.0))
        do {
            try await body(harness)
        } catch {
            try? await running.stop("the two-app service")
            await simulator.stop()
            throw error
        }
        try await running.stop("the two-app service")
        await simulator.stop()
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
