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
            are controlled over HTTP under /simulator (GET /simulator for an overview). \
            Repeat --app to serve several apps, each with its own key (the first app's key is the \
            state directory's own, each further app's is kept in apps/<bundle id>/); control routes \
            act for the first app unless given ?bundleId=<bundle id>.
            """
    )

    @Option(help: "Port to listen on (0 picks a free one).")
    var port: Int = 9080
    @Option(help: "Interface to bind.")
    var host: String = "127.0.0.1"
    @Option(help: "Directory for the PKI and the issued key (created if missing, reused on restart).")
    var stateDir: String = ".verdict-simulator"
    @Option(help: "The simulated app's bundle identifier (default com.example.verdict; one app, without --app).")
    var bundleId: String?
    @Option(help: "The simulated app's Apple ID (default 1234567890; one app, without --app).")
    var appAppleId: Int64?
    @Option(name: .customLong("app"), help: ArgumentHelp(
        "An app to serve, repeatable (the first is the control API's default); without an App Apple ID the n-th app gets 1234567889 + n.",
        valueName: "bundleId[:appAppleId]"))
    var apps: [SimulatorAppOption] = []
    @Option(help: "Sandbox (notifications sent once) or Production (failed notifications retried).")
    var environment: String = AppStoreEnvironment.sandbox.rawValue
    @Option(help: "How many times faster than real time notification retries run (3600: an hour per second).")
    var timeScale: Double = 1
    @Option(help: "Where to POST every app's notifications (per app later: PUT /simulator/delivery?bundleId=…).")
    var notificationURL: String?

    /// The default app's bundle id and App Apple ID.
    static let defaultApp = SimulatorAppOption(bundleId: "com.example.verdict", appAppleId: 1_234_567_890)

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535.") }
        guard Self.environment(environment) != nil else {
            throw ValidationError("--environment must be Sandbox or Production.")
        }
        guard timeScale > 0 else { throw ValidationError("--time-scale must be positive.") }
        if let notificationURL, URL(string: notificationURL)?.scheme?.hasPrefix("http") != true {
            throw ValidationError("--notification-url must be an http(s) URL.")
        }
        if !apps.isEmpty, bundleId != nil || appAppleId != nil {
            throw ValidationError("--bundle-id and --app-apple-id describe the only app; with --app, give bundleId:appAppleId.")
        }
        if let bundleId, !SimulatorAppOption.isValidBundleId(bundleId) {
            throw ValidationError("--bundle-id may hold only letters, digits, '.' and '-'.")
        }
        let resolved = servedApps
        if Set(resolved.map(\.bundleId)).count != resolved.count {
            throw ValidationError("every --app needs its own bundle id.")
        }
        if Set(resolved.map(\.appAppleId)).count != resolved.count {
            throw ValidationError("every --app needs its own App Apple ID.")
        }
    }

    /// The apps to serve, each with its App Apple ID: the `--app`s, or the one app of
    /// `--bundle-id`/`--app-apple-id`.
    var servedApps: [SimulatorAppOption] {
        guard !apps.isEmpty else {
            return [SimulatorAppOption(bundleId: bundleId ?? Self.defaultApp.bundleId,
                                       appAppleId: appAppleId ?? Self.defaultApp.appAppleId)]
        }
        return apps.enumerated().map { index, app in
            SimulatorAppOption(bundleId: app.bundleId, appAppleId: app.appAppleId ?? 1_234_567_890 + Int64(index))
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
        let environment = Self.environment(environment)!
        let clock = SimulatorClock()
        var apps: [SimulatorApp] = []
        var keyURLs: [URL] = []
        for (index, option) in servedApps.enumerated() {
            let (key, keyURL) = index == 0 ? (contents.issuedKey, contents.keyURL) : try state.loadOrIssueKey(bundleId: option.bundleId)
            let configuration = SimulatorAppConfiguration(
                bundleId: option.bundleId, appAppleId: option.appAppleId, environment: environment)
            let store = SimulatorStore(configuration: configuration, pki: contents.pki, issuedKey: key, clock: clock)
            let deliverer = NotificationDeliverer(
                store: store, url: notificationURL.flatMap(URL.init(string:)),
                policy: DeliveryRetryPolicy(timeScale: timeScale))
            apps.append(SimulatorApp(store: store, deliverer: deliverer))
            keyURLs.append(keyURL)
        }
        var logger = Logger(label: "verdict.simulator")
        logger.logLevel = .info
        let server = await SimulatorServer(apps: apps, host: host, port: port, logger: logger)
        let host = self.host
        try await server.run { [apps, keyURLs] port in
            let banner = Self.banner(baseURL: "http://\(host):\(port)", environment: environment, apps: apps,
                                     keyURLs: keyURLs, rootURL: contents.rootCertificateURL)
            FileHandle.standardOutput.write(Data(banner.utf8))
        }
    }

    /// What `verdict simulator` prints once listening: the base URL, and each app's bundle id,
    /// App Apple ID, key id, issuer id and key file.
    static func banner(
        baseURL: String, environment: AppStoreEnvironment, apps: [SimulatorApp], keyURLs: [URL], rootURL: URL
    ) -> String {
        var lines = ["App Store simulator running",
                     "  base URL:      \(baseURL)",
                     "  environment:   \(environment.rawValue)"]
        for (index, app) in apps.enumerated() {
            if apps.count > 1 { lines += ["", "  app \(index + 1)\(index == 0 ? " (control API default)" : ""):"] }
            lines += ["  bundle id:     \(app.bundleId)",
                      "  app Apple ID:  \(app.appAppleId.map(String.init) ?? "-")",
                      "  key id:        \(app.store.issuedKey.keyId)",
                      "  issuer id:     \(app.store.issuedKey.issuerId)",
                      "  key path:      \(keyURLs[index].path)"]
        }
        if apps.count > 1 { lines.append("") }
        lines += ["  root path:     \(rootURL.path)",
                  "  control API:   \(baseURL)/simulator\(apps.count > 1 ? " (?bundleId=… for another app)" : "")",
                  ""]
        return lines.joined(separator: "\n")
    }
}
