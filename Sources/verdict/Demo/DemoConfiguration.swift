import AppStoreServer
import AppStoreSimulator
import Foundation
import Logging

/// The service's settings for `verdict demo`, as a deployment of several apps writes them: a JSON
/// config file with one `"apps"` entry per app (bundle id, App Apple ID, rule bundle, the app's
/// own In-App Purchase key issued by the simulator) and the API tokens, beside `VERDICT_*`
/// variables for what every app shares (database, environments, the simulator's root
/// certificate and API address).
enum DemoConfiguration {
    /// The API tokens the demo generates.
    struct Tokens: Sendable {
        /// Acts for the first app only, as that app's backend's token would.
        var firstApp: String
        /// Acts for every app.
        var shared: String
    }

    /// A new random token (`demo-` and 32 hex digits).
    static func newToken() -> String {
        "demo-" + (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max)) }.joined()
    }

    /// Writes the simulator's root certificate, each app's issued key and the config file into
    /// `directory`; returns the service's `VERDICT_*` settings and the config file.
    static func write(
        apps: [(app: DemoApp, store: SimulatorStore)], tokens: Tokens, logLevel: Logger.Level,
        directory: URL, simulatorURL: String
    ) throws -> (environment: [String: String], file: URL) {
        guard let first = apps.first else { throw DemoError("the demo needs at least one app") }
        let rootFile = directory.appendingPathComponent("simulator-root.der")
        try first.store.pki.rootCertificateDER.write(to: rootFile)
        var entries: [[String: Any]] = []
        for (app, store) in apps {
            let key = store.issuedKey
            let keyFile = directory.appendingPathComponent(key.fileName)
            try Data(key.pemRepresentation.utf8).write(to: keyFile)
            entries.append([
                "bundleId": app.bundleId,
                "appAppleId": app.appAppleId,
                "rules": ["dir": app.rulesDirectory],
                "appstore": ["keyId": key.keyId, "issuerId": key.issuerId, "privateKeyFile": keyFile.path],
            ])
        }
        let settings: [String: Any] = [
            "apps": entries,
            "apiTokens": [
                ["token": tokens.firstApp, "role": "operator", "apps": [first.app.bundleId]],
                ["token": tokens.shared, "role": "operator"],
            ],
        ]
        let file = directory.appendingPathComponent("verdict.json")
        try JSONSerialization.data(withJSONObject: settings, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            .write(to: file)
        let environment = [
            "VERDICT_DATABASE_URL": "sqlite:" + directory.appendingPathComponent("verdict.sqlite").path,
            "VERDICT_ENVIRONMENTS": AppStoreEnvironment.sandbox.rawValue,
            "VERDICT_ROOT_CERTIFICATES": rootFile.path,
            "VERDICT_APPSTORE_API_URL": simulatorURL,
            "VERDICT_RECONCILE_INTERVAL": "0",
            // The demo's app backends report their facts before Apple asks: nothing to wait for.
            "VERDICT_CONSUMPTION_GRACE": "0",
            "VERDICT_LOG_LEVEL": logLevel.rawValue,
        ]
        return (environment, file)
    }
}
