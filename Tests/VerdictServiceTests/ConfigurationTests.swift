import Configuration
import Crypto
import Foundation
import Testing
@testable import VerdictService

/// `verdict serve` configuration: names, defaults, precedence and one-line errors.
@Suite struct ConfigurationTests {
    private func configuration(_ environment: [String: String], flags: [ConfigurationKey: String] = [:]) async throws -> ServiceConfiguration {
        let reader = try await ConfigurationSources.reader(flags: flags, environment: environment)
        return try ServiceConfiguration(reader: reader)
    }

    /// The configuration from a config file holding `json`, on top of `environment`.
    private func configuration(file json: String, _ environment: [String: String] = [:]) async throws -> ServiceConfiguration {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-config-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await configuration(environment.merging(["VERDICT_CONFIG_FILE": file.path]) { _, file in file })
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
        #expect(configuration.apps[0].rulesDirectory == "Rules")
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.apps[0].environments == [.production, .sandbox])
        #expect(configuration.rootCertificates.count == 1)
        #expect(configuration.onlineChecks == false)
        #expect(configuration.apps[0].appStoreCredentials == nil)
        #expect(configuration.apps[0].appStoreCredentialsProblem?.contains("VERDICT_APPSTORE_KEY_ID") == true)
        #expect(configuration.apiTokens.isEmpty)
        #expect(configuration.apps[0].webhookURL == nil)
        #expect(configuration.apps[0].assumeConsent == false)
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
        #expect(configuration.apps[0].appAppleId == nil)
        #expect(configuration.apps[0].environments == [.sandbox])
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
        #expect(configuration.apps[0].bundleId == "com.file")
        #expect(configuration.databaseURL == .sqliteFile(path: "/tmp/x.sqlite"))
        #expect(configuration.port == 7100)
        #expect(configuration.apps[0].environments == [.sandbox])
        #expect(configuration.workerConcurrency == 3)
        #expect(configuration.apps[0].assumeConsent == true)
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
        #expect(Set(InvalidSetting.table.filter { $0.configFile == nil }.map(\.key)) == Set(ConfigurationKey.all))
    }

    @Test(arguments: InvalidSetting.table)
    func anInvalidSettingIsOneLineNamingIt(_ invalid: InvalidSetting) async throws {
        do {
            if let json = invalid.configFile {
                _ = try await configuration(file: json, invalid.environment)
            } else {
                _ = try await configuration(invalid.environment)
            }
            Issue.record("expected an error naming \(invalid.key.environmentVariable)")
        } catch let error as ConfigurationError {
            #expect(error.key == invalid.key, "\(error.description)")
            #expect(error.app == invalid.app, "\(error.description)")
            #expect(error.description.hasPrefix(invalid.expectedPrefix), "\(error.description)")
            #expect(error.description.count > invalid.expectedPrefix.count + 8, "says why: \(error.description)")
            #expect(!error.description.contains("\n"))
            #expect(!error.description.contains("hunter2secret"), "a password leaked: \(error.description)")
        }
    }

    // MARK: Several apps

    @Test func aFileListsSeveralAppsThatInheritTheTopLevel() async throws {
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-key-\(UUID().uuidString).p8")
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: keyFile)
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let configuration = try await configuration(file: #"""
            {"port": 7000,
             "appstore": {"keyId": "TEAMKEY", "issuerId": "issuer", "privateKeyFile": "\#(keyFile.path)", "apiUrl": "http://127.0.0.1:9999"},
             "apps": [
               {"bundleId": "com.a", "appAppleId": 111, "environments": ["Production", "Sandbox"], "rules": {"dir": "RulesA"},
                "appstore": {"keyId": "AKEY"}, "webhook": {"url": "https://hooks.example.com/a", "secret": "a-secret"},
                "assumeConsent": false},
               {"bundleId": "com.b", "appAppleId": 222, "rules": {"dir": "RulesB"}}
             ],
             "apiTokens": ["app:token-0123456789abcdef",
                           {"token": "token-b-0123456789ab", "role": "app", "apps": ["com.b"]},
                           {"token": "token-v-0123456789ab", "role": "viewer"}]}
            """#, ["VERDICT_ENVIRONMENTS": "Sandbox", "VERDICT_ASSUME_CONSENT": "true"])
        #expect(configuration.port == 7000)
        #expect(configuration.apps.map(\.bundleId) == ["com.a", "com.b"])
        let (a, b) = (configuration.apps[0], configuration.apps[1])
        // The entry's own settings win over the top level's (file, variables and flags alike).
        #expect(a.appAppleId == 111 && a.environments == [.production, .sandbox] && a.rulesDirectory == "RulesA")
        #expect(a.webhookURL?.absoluteString == "https://hooks.example.com/a" && a.webhookSecret == "a-secret")
        #expect(a.assumeConsent == false)
        #expect(a.appStoreCredentials?.keyId == "AKEY" && a.appStoreCredentials?.issuerId == "issuer")
        // What an entry leaves out is the top level's.
        #expect(b.appAppleId == 222 && b.environments == [.sandbox] && b.rulesDirectory == "RulesB")
        #expect(b.webhookURL == nil && b.assumeConsent == true)
        #expect(b.appStoreCredentials?.keyId == "TEAMKEY" && b.appStoreCredentials?.privateKeyFile == keyFile.path)
        #expect(a.appStoreAPIURL?.absoluteString == "http://127.0.0.1:9999" && b.appStoreAPIURL == a.appStoreAPIURL)
        // The single-app properties are the first app's.
        #expect(configuration.apps[0].bundleId == "com.a" && configuration.apps[0].appAppleId == 111 && configuration.apps[0].rulesDirectory == "RulesA")
        #expect(configuration.apps[0].webhookSecret == "a-secret" && configuration.apps[0].appStoreCredentials?.keyId == "AKEY")
        #expect(configuration.apiTokens == [
            APIToken(role: .app, token: "token-0123456789abcdef"),
            APIToken(role: .app, token: "token-b-0123456789ab", apps: ["com.b"]),
            APIToken(role: .viewer, token: "token-v-0123456789ab"),
        ])
        #expect("\(configuration.apiTokens[1])" == "app token for com.b")
    }

    @Test func singleAppSettingsConfigureOneApp() async throws {
        let configuration = try await configuration([
            "VERDICT_BUNDLE_ID": "com.example", "VERDICT_APP_APPLE_ID": "123", "VERDICT_RULES_DIR": "MyRules",
            "VERDICT_WEBHOOK_URL": "https://hooks.example.com/v", "VERDICT_WEBHOOK_SECRET": "webhook-secret",
        ])
        #expect(configuration.apps.count == 1)
        let app = try #require(configuration.apps.first)
        #expect(app.bundleId == "com.example" && app.appAppleId == 123 && app.rulesDirectory == "MyRules")
        #expect(app.environments == [.production, .sandbox] && app.assumeConsent == false)
        #expect(app.webhookURL == configuration.apps[0].webhookURL && app.webhookSecret == "webhook-secret")
        #expect(app.appStoreCredentials == nil && app.appStoreCredentialsProblem == configuration.apps[0].appStoreCredentialsProblem)
    }

    @Test func variableTokensReplaceTheFilesAndActForEveryApp() async throws {
        let file = #"""
            {"apps": [{"bundleId": "com.a", "environments": ["Sandbox"], "rules": {"dir": "Rules"}}],
             "apiTokens": [{"token": "token-a-0123456789ab", "role": "app", "apps": ["com.a"]}]}
            """#
        let replaced = try await configuration(file: file, ["VERDICT_API_TOKENS": "viewer:token-v-0123456789ab"])
        #expect(replaced.apiTokens == [APIToken(role: .viewer, token: "token-v-0123456789ab")])
        let fromFile = try await configuration(file: file)
        #expect(fromFile.apiTokens == [APIToken(role: .app, token: "token-a-0123456789ab", apps: ["com.a"])])
    }

    @Test func aFileWithoutAppsReadsItsValuesAsBefore() async throws {
        // Dotted member names nest, integral numbers and booleans are read as their text, null is unset.
        let configuration = try await configuration(file: #"""
            {"bundleId": "com.file", "environments": ["Sandbox"], "worker.concurrency": 3.0, "onlineChecks": true,
             "webhook": {"url": null}, "rateLimit": {"perSecond": 0}}
            """#)
        #expect(configuration.apps.count == 1 && configuration.apps[0].bundleId == "com.file")
        #expect(configuration.workerConcurrency == 3 && configuration.onlineChecks == true)
        #expect(configuration.apps[0].webhookURL == nil && configuration.rateLimitPerSecond == 0)
    }

    @Test func variablesCannotReachTheFilesAppEntries() async throws {
        let configuration = try await configuration([
            "VERDICT_BUNDLE_ID": "com.example", "VERDICT_ENVIRONMENTS": "Sandbox",
            "VERDICT_APPS_COUNT": "1", "VERDICT_APPS_0_BUNDLE_ID": "com.injected", "VERDICT_API_TOKENS_COUNT": "1",
        ])
        #expect(configuration.apps.map(\.bundleId) == ["com.example"])
        #expect(configuration.apiTokens.isEmpty)
    }

    @Test func serveExitsWithStatus78NamingTheApp() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-apps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("verdict.json")
        let entry = #"{"bundleId": "com.a", "environments": ["Sandbox"], "rules": {"dir": "Rules"}}"#
        try Data(#"{"apps": [\#(entry), \#(entry)]}"#.utf8).write(to: file)
        let run = try await ServiceProcess.run(["serve", "--config", file.path], settings: [:], directory: directory, name: "apps")
        #expect(run.status == ConfigurationError.exitStatus, "exit status \(run.status): \(run.output)")
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1 && lines.first?.hasPrefix("verdict: configuration error: app com.a: bundleId ") == true, "\(run.output)")
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
