import Crypto
import Foundation
import HTTPTypes
import Testing
import VerdictService
import VerdictTestSupport

/// A service of two apps, ``a`` and ``b``, tested in-process through its router (``RouterHarness``
/// configured by a JSON config file with `"apps"`), on a fresh database of the test's backend.
/// App A uses the shipped `Rules/` folder, app B a copy of it (so an answer about rules says whose
/// they are). Tokens: ``tokenA`` acts for A, ``tokenB`` for B, ``tokenAB`` for both (every one an
/// operator's). Seed an app's data through ``app(_:)``'s repository or through the API with a token
/// of that app.
struct TwoAppRouterHarness: Sendable {
    static let a = "com.example.a"
    static let b = "com.example.b"
    static let tokenA = "token-of-app-a-0123456789"
    static let tokenB = "token-of-app-b-0123456789"
    static let tokenAB = "token-of-apps-a-and-b-0123"

    /// The single-app harness running the two-app service (its ``RouterHarness/send`` checks every
    /// answer against the OpenAPI document).
    let router: RouterHarness
    /// App B's rules folder (app A's is ``ServiceHarness/rulesDirectory``).
    let rulesDirectoryB: String
    /// Each app's own In-App Purchase key by bundle id (``with(_:signingKeys:appAppleIds:extraSettings:_:)``
    /// with `signingKeys`; empty otherwise: no app can sign an offer).
    var signingKeys: [String: P256.Signing.PrivateKey] = [:]
    /// The settings the service was opened with (its config file among them).
    var settings: [String: String] = [:]

    /// The key id of app `bundleId`'s In-App Purchase key (with `signingKeys`).
    static func keyId(_ bundleId: String) -> String { bundleId == a ? "KEYOFAPPA1" : "KEYOFAPPB1" }
    /// The issuer both apps' keys belong to (one team).
    static let issuerId = "57246542-96fe-1a63-e053-0824d011072a"

    var service: VerdictServer { router.service }

    /// The context of the app `bundleId` (``a`` or ``b``).
    func app(_ bundleId: String) throws -> AppContext {
        try #require(service.apps.app(bundleId: bundleId))
    }

    /// Sends a request with `token`, naming `app` in the `Verdict-App` header when given.
    func send(
        _ method: HTTPRequest.Method, _ path: String, token: String, app: String? = nil, body: Data? = nil,
        contentType: String? = "application/json"
    ) async throws -> RouterHarness.Answer {
        var headers = HTTPFields()
        if let app { headers[HTTPField.Name("Verdict-App")!] = app }
        return try await router.send(method, path, body: body, contentType: contentType, token: token, headers: headers)
    }

    /// Each app's App Apple ID in the config file, by default.
    static let appAppleIds: [String: Int64] = [a: 1_234_567_890, b: 1_234_567_891]

    /// Runs `body` against a fresh two-app service on `backend`; with `signingKeys`, each app has
    /// an In-App Purchase key of its own (``signingKeys``); `appAppleIds` replaces the apps' App
    /// Apple IDs (an app missing from it has none).
    static func with(
        _ backend: TestBackend = .sqlite, signingKeys: Bool = false, appAppleIds: [String: Int64] = appAppleIds,
        extraSettings: [String: String] = [:],
        _ body: @escaping @Sendable (TwoAppRouterHarness) async throws -> Void
    ) async throws {
        try await TestDatabase.with(backend) { database in
            let rulesB = database.directory.appendingPathComponent("rules-b")
            try FileManager.default.copyItem(at: URL(fileURLWithPath: ServiceHarness.rulesDirectory), to: rulesB)
            let keys = signingKeys ? [a: P256.Signing.PrivateKey(), b: P256.Signing.PrivateKey()] : [:]
            var keyFiles: [String: String] = [:]
            for (bundleId, key) in keys {
                let keyFile = database.directory.appendingPathComponent("\(bundleId).p8")
                try Data(key.pemRepresentation.utf8).write(to: keyFile)
                keyFiles[bundleId] = keyFile.path
            }
            let file = database.directory.appendingPathComponent("verdict.json")
            try configuration(rulesDirectoryB: rulesB.path, keyFiles: keyFiles, appAppleIds: appAppleIds).write(to: file)
            // RouterHarness's single-app settings are unset (an empty value counts as unset): the
            // file's "apps" and "apiTokens" configure the service.
            var settings = [
                "VERDICT_DATABASE_URL": database.url, "VERDICT_CONFIG_FILE": file.path,
                "VERDICT_BUNDLE_ID": "", "VERDICT_APP_APPLE_ID": "", "VERDICT_RULES_DIR": "", "VERDICT_API_TOKENS": "",
            ]
            settings.merge(extraSettings) { _, new in new }
            try await RouterHarness.with(extraSettings: settings) { [settings] router in
                try await body(TwoAppRouterHarness(router: router, rulesDirectoryB: rulesB.path, signingKeys: keys, settings: settings))
            }
        }
    }

    /// Runs `body` with a second service on the same database, configured as this one but with
    /// `apiTokens` (JSON: the file's `"apiTokens"` array) instead of its tokens — the deployment
    /// restarted with an edited file.
    func restarted(apiTokens: String, _ body: @escaping @Sendable (TwoAppRouterHarness) async throws -> Void) async throws {
        let file = URL(fileURLWithPath: try #require(settings["VERDICT_CONFIG_FILE"]))
        var configuration = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        configuration["apiTokens"] = try JSONSerialization.jsonObject(with: Data(apiTokens.utf8))
        let edited = file.deletingLastPathComponent().appendingPathComponent("verdict-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: configuration).write(to: edited)
        var settings = settings
        settings["VERDICT_CONFIG_FILE"] = edited.path
        let (rulesB, keys) = (rulesDirectoryB, signingKeys)
        try await RouterHarness.with(extraSettings: settings) { [settings] router in
            try await body(TwoAppRouterHarness(router: router, rulesDirectoryB: rulesB, signingKeys: keys, settings: settings))
        }
    }

    /// The config file: the two apps (with their key files, when given) and their tokens.
    private static func configuration(rulesDirectoryB: String, keyFiles: [String: String], appAppleIds: [String: Int64]) throws -> Data {
        func entry(_ bundleId: String, rules: String) -> [String: Any] {
            var entry: [String: Any] = ["bundleId": bundleId, "rules": ["dir": rules]]
            if let appAppleId = appAppleIds[bundleId] { entry["appAppleId"] = appAppleId }
            if let keyFile = keyFiles[bundleId] {
                entry["appstore"] = ["keyId": keyId(bundleId), "issuerId": issuerId, "privateKeyFile": keyFile]
            }
            return entry
        }
        let file: [String: Any] = [
            "apps": [
                entry(a, rules: ServiceHarness.rulesDirectory),
                entry(b, rules: rulesDirectoryB),
            ],
            "apiTokens": [
                ["token": tokenA, "role": "operator", "apps": [a]],
                ["token": tokenB, "role": "operator", "apps": [b]],
                ["token": tokenAB, "role": "operator", "apps": [a, b]],
            ],
        ]
        return try JSONSerialization.data(withJSONObject: file, options: [.sortedKeys])
    }
}
