import AppStoreServer
import AppStoreServerHTTP
import AppStoreSimulator
import AsyncHTTPClient
import Configuration
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Testing
import VerdictService
import VerdictStorage
import VerdictTestSupport

/// A running App Store simulator and a running Verdict service (in-process, real HTTP on
/// 127.0.0.1) wired together: the simulator's root is trusted, its issued key is the service's
/// In-App Purchase key, and it delivers notifications to the service's `/v1/notifications`.
struct ServiceHarness: Sendable {
    static let token = "test-token-0123456789abcdef"
    static let bundleId = "com.example.verdict"

    let database: TestDatabase
    let simulator: SimulatorServer
    let store: SimulatorStore
    let service: VerdictServer
    let baseURL: String
    let simulatorURL: URL
    /// The service's settings as `VERDICT_*` variables (for starting `verdict serve` processes).
    let environment: [String: String]

    /// Sends a request to the service.
    func request(
        _ method: HTTPMethod, _ path: String, body: Data? = nil, contentType: String? = "application/json",
        token: String? = ServiceHarness.token
    ) async throws -> (status: Int, body: Data) {
        let answer = try await HTTP.send(method, baseURL + path, body: body, contentType: contentType, token: token)
        // Every answer of every service suite is checked against the OpenAPI document.
        for violation in OpenAPIContract.service.violations(method: method.rawValue, path: path, status: answer.status, body: answer.body) {
            Issue.record("the answer breaks the OpenAPI document: \(violation)")
        }
        return answer
    }

    /// Posts Apple's body for `signedPayload`.
    func deliver(_ signedPayload: String) async throws -> (status: Int, body: Data) {
        try await request(.POST, "/v1/notifications", body: Data(#"{"signedPayload":"\#(signedPayload)"}"#.utf8), token: nil)
    }

    /// Polls until the notification is processed (or failed), returning its API view.
    func waitUntilProcessed(_ uuid: String, timeout: Duration = .seconds(45)) async throws -> [String: JSONValue] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (status, body) = try await request(.GET, "/v1/notifications/\(uuid)")
            if status == 200, let object = JSONValue.parse(body)?.objectValue,
               object["state"]?.stringValue != "received" {
                return object
            }
            guard ContinuousClock.now < deadline else {
                throw ServiceTestError("notification \(uuid) not processed in time (last status \(status))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Runs `body` with a fresh database, simulator and service; stops everything afterwards.
    static func with<T: Sendable>(
        _ backend: TestBackend,
        environment: AppStoreEnvironment = .sandbox,
        credentials: Bool = true,
        extraSettings: [String: String] = [:],
        startService: Bool = true,
        serviceClock: SimulatorClock = SimulatorClock(),
        _ body: (ServiceHarness) async throws -> T
    ) async throws -> T {
        let database = try await TestDatabase.make(backend)
        let clock = SimulatorClock(frozenAt: Date(appStoreMilliseconds: Date().appStoreMilliseconds / 1000 * 1000))
        let store = SimulatorStore(
            configuration: SimulatorAppConfiguration(bundleId: bundleId, appAppleId: 1_234_567_890, environment: environment),
            pki: try SimulatorPKI(), clock: clock
        )
        let simulator = await SimulatorServer(store: store, tokenClock: .wall)
        let simulatorPort = try await simulator.start()
        let simulatorURL = URL(string: "http://127.0.0.1:\(simulatorPort)")!
        let rootFile = database.directory.appendingPathComponent("root.der")
        try store.pki.rootCertificateDER.write(to: rootFile)
        let keyFile = database.directory.appendingPathComponent("key.p8")
        try Data(store.issuedKey.pemRepresentation.utf8).write(to: keyFile)

        var settings = [
            "VERDICT_DATABASE_URL": database.url,
            "VERDICT_RULES_DIR": rulesDirectory,
            "VERDICT_BUNDLE_ID": bundleId,
            "VERDICT_APP_APPLE_ID": "1234567890",
            "VERDICT_ENVIRONMENTS": environment.rawValue,
            "VERDICT_ROOT_CERTIFICATES": rootFile.path,
            "VERDICT_API_TOKENS": token,
            "VERDICT_RECONCILE_INTERVAL": "0",
            // Tests report facts before Apple asks; the grace period has its own tests.
            "VERDICT_CONSUMPTION_GRACE": "0",
            // The whole suite runs at once on a small machine, where a process can stall for
            // longer than a third of the default 15 s lease; a lease that ran out under a running
            // job would run it twice. Leases and their expiry have their own tests.
            "VERDICT_WORKER_LEASE": "120",
            // For the same reason a database call may wait longer than the default 5 s for its
            // connection before it is answered 503; the outage tests set their own timeout.
            "VERDICT_DATABASE_TIMEOUT": "60",
            "VERDICT_LOG_LEVEL": "critical",
        ]
        if credentials {
            settings["VERDICT_APPSTORE_KEY_ID"] = store.issuedKey.keyId
            settings["VERDICT_APPSTORE_ISSUER_ID"] = store.issuedKey.issuerId
            settings["VERDICT_APPSTORE_PRIVATE_KEY_FILE"] = keyFile.path
            settings["VERDICT_APPSTORE_API_URL"] = simulatorURL.absoluteString
        }
        settings.merge(extraSettings) { _, new in new }
        let configuration = try ServiceConfiguration(reader: try await ConfigurationSources.reader(environment: settings))
        // The service's own clock: shifted, it lives later than Apple (a request that arrives late);
        // frozen, time moves only when the test moves it (deadlines independent of machine load).
        let service = try await VerdictServer.open(
            configuration: configuration, logger: TestDatabase.logger, now: { serviceClock.now })
        // startService false: the database is migrated and `service.apps.first.repository` is usable, but no
        // HTTP server or job worker runs in-process (tests of `verdict serve` child processes).
        let running: RunningApplication?
        var baseURL = ""
        if startService {
            let application = try await RunningApplication.start { onServerRunning in
                try service.makeApplication(port: 0, onServerRunning: onServerRunning)
            }
            running = application
            baseURL = "http://127.0.0.1:\(application.port)"
            await simulator.deliverer.setDeliveryURL(URL(string: baseURL + "/v1/notifications"))
        } else {
            running = nil
            await simulator.deliverer.setDeliveryURL(nil)
        }
        let harness = ServiceHarness(
            database: database, simulator: simulator, store: store, service: service, baseURL: baseURL,
            simulatorURL: simulatorURL, environment: settings
        )
        // Stopping is bounded: a service that does not shut down fails the test, never hangs the run.
        func stop() async throws {
            var stuck: ServiceTestError?
            if let running {
                do {
                    try await running.stop("the service's shutdown")
                } catch let error as ServiceTestError {
                    stuck = error
                }
            } else {
                try? await service.shutdown()
            }
            let cleanup = Task<Void, any Error> {
                await simulator.stop()
                await database.remove()
            }
            _ = try await value(of: cleanup, within: .seconds(30), "stopping the simulator and removing the database")
            if let stuck { throw stuck }
        }
        let result: T
        do {
            result = try await body(harness)
        } catch {
            try await stop()
            throw error
        }
        try await stop()
        return result
    }

    /// The repository's `Rules/` folder (tests run from the package root or below it).
    static var rulesDirectory: String {
        var directory = URL(fileURLWithPath: #filePath)
        while directory.path != "/" {
            directory.deleteLastPathComponent()
            let candidate = directory.appendingPathComponent("Rules")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("catalog.yaml").path) {
                return candidate.path
            }
        }
        return "Rules"
    }
}

/// Plain HTTP for tests (AsyncHTTPClient, shared client).
enum HTTP {
    static func send(
        _ method: HTTPMethod, _ url: String, body: Data? = nil, contentType: String? = "application/json",
        token: String? = nil, headers extra: [(String, String)] = []
    ) async throws -> (status: Int, body: Data) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let contentType, body != nil { request.headers.add(name: "Content-Type", value: contentType) }
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in extra { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 4 * 1024 * 1024)
        return (Int(response.status.code), Data(buffer.readableBytesView))
    }
}

extension Data {
    /// The body as a JSON object (empty when it is not one).
    var jsonObject: [String: JSONValue] { JSONValue.parse(self)?.objectValue ?? [:] }
}

extension ServiceHarness {
    /// Waits until the service processed `result`'s notification and returns `result`.
    @discardableResult
    func settled(_ result: ScenarioResult) async throws -> ScenarioResult {
        _ = try await waitUntilProcessed(result.notification.notificationUUID)
        return result
    }

    /// A Lumen Pro annual subscriber at full price (59.99 USD) — the shipped rules' 40% case —
    /// processed by the service; returns the purchase and its originalTransactionId.
    func subscribeFullPriceAnnual(appAccountToken: UUID? = nil) async throws -> (bought: ScenarioResult, otid: String) {
        let bought = try await settled(store.subscribe(SubscribeRequest(
            productId: "com.lumen.pro.annual", price: 59_990, currency: "USD", appAccountToken: appAccountToken)))
        guard let otid = bought.originalTransactionId else { throw ServiceTestError("the purchase has no originalTransactionId") }
        return (bought, otid)
    }
}
