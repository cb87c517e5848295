import AppStoreServer
import AppStoreSimulator
import ArgumentParser
import Foundation
import Logging

/// `verdict simulator`: runs the local App Store (App Store Server API, signed notifications,
/// control API under `/simulator/…`) until SIGINT or SIGTERM.
struct SimulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulator",
        abstract: "Run a local App Store: App Store Server API, signed notifications, control API.",
        discussion: """
            The PKI and the issued In-App Purchase key are kept in --state-dir and reused on restart. \
            Point Verdict's API client at the printed base URL with the printed key, and its verifier \
            at the printed root certificate. Scenarios, delivery URL, clock, rate limits and faults \
            are controlled over HTTP under /simulator (GET /simulator for an overview).
            """
    )

    @Option(help: "Port to listen on (0 picks a free one).")
    var port: Int = 9080
    @Option(help: "Interface to bind.")
    var host: String = "127.0.0.1"
    @Option(help: "Directory for the PKI and the issued key (created if missing, reused on restart).")
    var stateDir: String = ".verdict-simulator"
    @Option(help: "The simulated app's bundle identifier.")
    var bundleId: String = "com.example.verdict"
    @Option(help: "The simulated app's Apple ID.")
    var appAppleId: Int64 = 1_234_567_890
    @Option(help: "Sandbox (notifications sent once) or Production (failed notifications retried).")
    var environment: String = AppStoreEnvironment.sandbox.rawValue
    @Option(help: "How many times faster than real time notification retries run (3600: an hour per second).")
    var timeScale: Double = 1
    @Option(help: "Where to POST notifications (can also be set later via PUT /simulator/delivery).")
    var notificationURL: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535.") }
        guard Self.environment(environment) != nil else {
            throw ValidationError("--environment must be Sandbox or Production.")
        }
        guard timeScale > 0 else { throw ValidationError("--time-scale must be positive.") }
        if let notificationURL, URL(string: notificationURL)?.scheme?.hasPrefix("http") != true {
            throw ValidationError("--notification-url must be an http(s) URL.")
        }
    }

    /// `Sandbox` or `Production`, in any letter case.
    static func environment(_ text: String) -> AppStoreEnvironment? {
        [AppStoreEnvironment.sandbox, .production].first { $0.rawValue.lowercased() == text.lowercased() }
    }

    func run() async throws {
        let state = SimulatorStateDirectory(url: URL(fileURLWithPath: stateDir, isDirectory: true))
        let ocspURL = port == 0 ? nil : SimulatorOCSPResponder.responderURL(host: host, port: port)
        let contents = try state.loadOrCreate(ocspResponderURL: ocspURL)
        let configuration = SimulatorAppConfiguration(
            bundleId: bundleId, appAppleId: appAppleId, environment: Self.environment(environment)!)
        let store = SimulatorStore(configuration: configuration, pki: contents.pki, issuedKey: contents.issuedKey)
        let deliverer = NotificationDeliverer(
            store: store, url: notificationURL.flatMap(URL.init(string:)),
            policy: DeliveryRetryPolicy(timeScale: timeScale))
        var logger = Logger(label: "verdict.simulator")
        logger.logLevel = .info
        let server = await SimulatorServer(store: store, deliverer: deliverer, host: host, port: port, logger: logger)
        let host = self.host
        try await server.run { port in
            let banner = """
                App Store simulator running
                  base URL:      http://\(host):\(port)
                  environment:   \(configuration.environment.rawValue)
                  bundle id:     \(configuration.bundleId)
                  app Apple ID:  \(configuration.appAppleId.map(String.init) ?? "-")
                  key id:        \(contents.issuedKey.keyId)
                  issuer id:     \(contents.issuedKey.issuerId)
                  key path:      \(contents.keyURL.path)
                  root path:     \(contents.rootCertificateURL.path)
                  control API:   http://\(host):\(port)/simulator

                """
            FileHandle.standardOutput.write(Data(banner.utf8))
        }
    }
}
