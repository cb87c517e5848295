import Configuration
import Foundation
import Testing
@testable import VerdictService

/// `verdict serve` configuration: names, defaults, precedence and one-line errors.
@Suite struct ConfigurationTests {
    private func configuration(_ environment: [String: String], flags: [ConfigurationKey: String] = [:]) async throws -> ServiceConfiguration {
        let reader = try await ConfigurationSources.reader(flags: flags, environment: environment)
        return try ServiceConfiguration(reader: reader)
    }

    @Test func namesFollowTheContract() {
        #expect(ConfigurationKey.databaseURL.environmentVariable == "VERDICT_DATABASE_URL")
        #expect(ConfigurationKey.databaseURL.flag == "--database-url")
        #expect(ConfigurationKey.appStorePrivateKeyFile.environmentVariable == "VERDICT_APPSTORE_PRIVATE_KEY_FILE")
        #expect(ConfigurationKey.appStoreAPIURL.environmentVariable == "VERDICT_APPSTORE_API_URL")
        #expect(ConfigurationKey.appAppleId.environmentVariable == "VERDICT_APP_APPLE_ID")
        #expect(ConfigurationKey.rulesDirectory.environmentVariable == "VERDICT_RULES_DIR")
        #expect(ConfigurationKey.reconcileInterval.environmentVariable == "VERDICT_RECONCILE_INTERVAL")
        #expect(ConfigurationKey.rulesReloadInterval.environmentVariable == "VERDICT_RULES_RELOAD_INTERVAL")
        #expect(ConfigurationKey.rulesReloadInterval.flag == "--rules-reload-interval")
        #expect(ConfigurationKey.apiTokens.flag == "--api-tokens")
    }

    @Test func defaults() async throws {
        let configuration = try await configuration(["VERDICT_BUNDLE_ID": "com.example", "VERDICT_APP_APPLE_ID": "123"])
        #expect(configuration.databaseURL == .sqliteFile(path: "verdict.sqlite"))
        #expect(configuration.rulesDirectory == "Rules")
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.environments == [.production, .sandbox])
        #expect(configuration.rootCertificates.count == 1)
        #expect(configuration.onlineChecks == false)
        #expect(configuration.appStoreCredentials == nil)
        #expect(configuration.appStoreCredentialsProblem?.contains("VERDICT_APPSTORE_KEY_ID") == true)
        #expect(configuration.apiTokens.isEmpty)
        #expect(configuration.webhookURL == nil)
        #expect(configuration.assumeConsent == false)
        #expect(configuration.reconcileInterval == .seconds(3600))
        #expect(configuration.historyWait == .seconds(30))
        #expect(configuration.attributionWindow == .seconds(30 * 86_400))
        #expect(configuration.consumptionGrace == .seconds(600))
        #expect(configuration.databaseTimeout == .seconds(5))
        #expect(configuration.rulesReloadInterval == .seconds(2))
        #expect(configuration.workerConcurrency == 8)
        #expect(configuration.logLevel == .info)
    }

    @Test func flagsWinOverTheEnvironment() async throws {
        let configuration = try await configuration(
            ["VERDICT_BUNDLE_ID": "com.example", "VERDICT_ENVIRONMENTS": "Sandbox", "VERDICT_PORT": "9000"],
            flags: [.port: "9100"]
        )
        #expect(configuration.port == 9100)
        #expect(configuration.appAppleId == nil)
        #expect(configuration.environments == [.sandbox])
    }

    @Test func configFileIsTheLastSource() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-config-\(UUID().uuidString).json")
        // Numbers, booleans and arrays in the file are read as their text.
        try Data(#"""
            {"bundleId": "com.file", "environments": ["Sandbox"], "database": {"url": "sqlite:/tmp/x.sqlite"}, "port": 7000,
             "worker": {"concurrency": 3}, "assumeConsent": true, "apiTokens": ["token-0123456789ab", "token-ba9876543210"]}
            """#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let reader = try await ConfigurationSources.reader(
            environment: ["VERDICT_PORT": "7100", "VERDICT_CONFIG_FILE": file.path]
        )
        let configuration = try ServiceConfiguration(reader: reader)
        #expect(configuration.bundleId == "com.file")
        #expect(configuration.databaseURL == .sqliteFile(path: "/tmp/x.sqlite"))
        #expect(configuration.port == 7100)
        #expect(configuration.environments == [.sandbox])
        #expect(configuration.workerConcurrency == 3)
        #expect(configuration.assumeConsent == true)
        #expect(configuration.apiTokens == ["token-0123456789ab", "token-ba9876543210"])
    }

    @Test func missingOrInvalidSettingsNameTheVariable() async throws {
        let cases: [([String: String], String)] = [
            ([:], "VERDICT_BUNDLE_ID"),
            (["VERDICT_BUNDLE_ID": "b"], "VERDICT_APP_APPLE_ID"),
            (["VERDICT_BUNDLE_ID": "b", "VERDICT_APP_APPLE_ID": "x"], "VERDICT_APP_APPLE_ID"),
            (["VERDICT_BUNDLE_ID": "b", "VERDICT_ENVIRONMENTS": "Sandbox", "VERDICT_PORT": "70000"], "VERDICT_PORT"),
            (["VERDICT_BUNDLE_ID": "b", "VERDICT_ENVIRONMENTS": "Staging"], "VERDICT_ENVIRONMENTS"),
            (["VERDICT_BUNDLE_ID": "b", "VERDICT_ENVIRONMENTS": "Sandbox", "VERDICT_DATABASE_URL": "mysql://x"], "VERDICT_DATABASE_URL"),
            (["VERDICT_BUNDLE_ID": "b", "VERDICT_ENVIRONMENTS": "Sandbox", "VERDICT_APPSTORE_KEY_ID": "K"], "VERDICT_APPSTORE_ISSUER_ID"),
            (["VERDICT_BUNDLE_ID": "b", "VERDICT_ENVIRONMENTS": "Sandbox", "VERDICT_ONLINE_CHECKS": "maybe"], "VERDICT_ONLINE_CHECKS"),
            (["VERDICT_BUNDLE_ID": "b", "VERDICT_ENVIRONMENTS": "Sandbox", "VERDICT_ROOT_CERTIFICATES": "/nonexistent.cer"], "VERDICT_ROOT_CERTIFICATES"),
            (["VERDICT_BUNDLE_ID": "b", "VERDICT_ENVIRONMENTS": "Sandbox", "VERDICT_WEBHOOK_URL": "https://x.example"], "VERDICT_WEBHOOK_SECRET"),
            (["VERDICT_BUNDLE_ID": "b", "VERDICT_ENVIRONMENTS": "Sandbox", "VERDICT_HISTORY_WAIT": "-1"], "VERDICT_HISTORY_WAIT"),
            (["VERDICT_BUNDLE_ID": "b", "VERDICT_ENVIRONMENTS": "Sandbox", "VERDICT_HISTORY_WAIT": "3601"], "VERDICT_HISTORY_WAIT"),
            (["VERDICT_BUNDLE_ID": "b", "VERDICT_ENVIRONMENTS": "Sandbox", "VERDICT_ATTRIBUTION_WINDOW": "x"], "VERDICT_ATTRIBUTION_WINDOW"),
            (["VERDICT_BUNDLE_ID": "b", "VERDICT_ENVIRONMENTS": "Sandbox", "VERDICT_CONSUMPTION_GRACE": "21601"], "VERDICT_CONSUMPTION_GRACE"),
        ]
        for (environment, variable) in cases {
            do {
                _ = try await configuration(environment)
                Issue.record("expected an error naming \(variable) for \(environment)")
            } catch let error as ConfigurationError {
                #expect(error.description.contains(variable), "\(error.description)")
                #expect(!error.description.contains("\n"))
            }
        }
    }

    @Test func secretsNeverAppearInErrors() async throws {
        let secret = "short-secret"
        do {
            _ = try await configuration(["VERDICT_BUNDLE_ID": "b", "VERDICT_ENVIRONMENTS": "Sandbox", "VERDICT_API_TOKENS": secret])
            Issue.record("a token under 16 characters must be refused")
        } catch let error as ConfigurationError {
            #expect(error.key == .apiTokens)
            #expect(!error.description.contains(secret))
        }
    }
}
