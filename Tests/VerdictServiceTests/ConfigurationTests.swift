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
        #expect(configuration.revenueWindow == .seconds(365 * 86_400))
        #expect(configuration.retentionDeadline == .milliseconds(400))
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
        #expect(configuration.apiTokens == [
            APIToken(role: .operator, token: "token-0123456789ab"), APIToken(role: .operator, token: "token-ba9876543210"),
        ])
    }

    @Test func aTokenEntryMayNameItsRole() {
        #expect(APIToken(entry: "app:0123456789abcdef") == APIToken(role: .app, token: "0123456789abcdef"))
        #expect(APIToken(entry: "viewer:0123456789abcdef") == APIToken(role: .viewer, token: "0123456789abcdef"))
        #expect(APIToken(entry: "operator:0123456789abcdef") == APIToken(role: .operator, token: "0123456789abcdef"))
        // A plain token keeps every right; an unknown prefix is part of the token.
        #expect(APIToken(entry: "0123456789abcdef") == APIToken(role: .operator, token: "0123456789abcdef"))
        #expect(APIToken(entry: "admin:0123456789abcdef") == APIToken(role: .operator, token: "admin:0123456789abcdef"))
        #expect(!"\(APIToken(entry: "app:0123456789abcdef"))".contains("0123456789abcdef"), "a token is never printed")
    }

    @Test func anUnreadableConfigFileIsAConfigurationError() async throws {
        do throws(ConfigurationError) {
            _ = try await ConfigurationSources.reader(environment: [:], configFile: "/nonexistent/verdict.json")
            Issue.record("a missing config file must be refused")
        } catch {
            #expect(error.key == .configFile)
            #expect(error.description.hasPrefix("configuration error: VERDICT_CONFIG_FILE (--config) "), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func everySettingHasAnInvalidValueInTheTable() {
        #expect(Set(InvalidSetting.table.map(\.key)) == Set(ConfigurationKey.all))
    }

    @Test(arguments: InvalidSetting.table)
    func anInvalidSettingIsOneLineNamingIt(_ invalid: InvalidSetting) async throws {
        do {
            _ = try await configuration(invalid.environment)
            Issue.record("expected an error naming \(invalid.key.environmentVariable)")
        } catch let error as ConfigurationError {
            #expect(error.key == invalid.key, "\(error.description)")
            #expect(error.description.hasPrefix("configuration error: \(invalid.key.environmentVariable) (\(invalid.key.flag)) "))
            #expect(error.description.count > "configuration error: \(invalid.key.environmentVariable) (\(invalid.key.flag)) ".count + 8,
                    "says why: \(error.description)")
            #expect(!error.description.contains("\n"))
            #expect(!error.description.contains("hunter2secret"), "a password leaked: \(error.description)")
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
