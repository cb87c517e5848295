import AppStoreServer
import Configuration
import Foundation

/// Everything `verdict serve` is configured with, read once at start-up from a `ConfigReader`
/// (CLI flags, then `VERDICT_*` environment variables, then an optional JSON config file; see
/// ``ConfigurationSources``). Every value is parsed here, so a bad setting stops start-up with one
/// ``ConfigurationError`` naming it.
public struct ServiceConfiguration: Sendable {
    /// The In-App Purchase key used for App Store Server API calls and offer signatures.
    public struct AppStoreCredentials: Sendable {
        public var keyId: String
        public var issuerId: String
        /// The `.p8` file's path (its contents are read at start-up, never logged).
        public var privateKeyFile: String
        public var privateKeyPEM: String
    }

    public var databaseURL: String
    /// Seconds one database call (including the wait for a pooled PostgreSQL connection) may take
    /// before it fails as unavailable: intake then answers 503 instead of holding Apple's request.
    public var databaseTimeout: Int
    public var rulesDirectory: String
    public var host: String
    public var port: Int
    public var bundleId: String
    public var appAppleId: Int64?
    public var environments: Set<AppStoreEnvironment>
    /// DER bytes of the trusted roots; Apple Root CA - G3 unless configured.
    public var rootCertificates: [Data]
    /// Where the roots came from, for `/readyz` and logs.
    public var rootCertificatesSource: String
    public var onlineChecks: Bool
    /// Nil when the key is not configured: API calls wait in the queue and `/readyz` says why.
    public var appStoreCredentials: AppStoreCredentials?
    /// Why `appStoreCredentials` is nil (which settings are missing).
    public var appStoreCredentialsProblem: String?
    /// Overrides Apple's hosts (the simulator), for every environment.
    public var appStoreAPIURL: URL?
    /// Bearer tokens app backends present; empty: app-backend endpoints answer 401.
    public var apiTokens: [String]
    public var webhookURL: URL?
    public var webhookSecret: String?
    /// Whether the app's terms grant consent to share consumption data: a customer without a
    /// consent-ledger entry is treated as consenting (an explicit refusal still wins).
    public var assumeConsent: Bool
    /// Seconds a decision on a customer whose App Store history was never read waits for the first
    /// history sync, counted from the notification's arrival (0: decide at once on what is stored).
    public var historyWait: Int
    /// Seconds a refund request waits after it arrived for the app backend to report facts (ended
    /// early by facts reported with `"final": true`; 0 decides at once).
    public var consumptionGrace: Int
    /// Days after an offer's expiry (or a decision without an offer) during which a customer's
    /// return is attributed to the decision; later returns are not.
    public var attributionWindow: Int
    /// Seconds between automatic reconciliations with Get Notification History (0: off).
    public var reconcileInterval: Int
    /// Seconds between checks of the rules folder for changes (0: only SIGHUP reloads).
    public var rulesReloadInterval: Int
    /// How many jobs one process runs at once.
    public var workerConcurrency: Int
    public var logLevel: String

    /// Reads and checks every setting.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        func string(_ key: ConfigurationKey) -> String? {
            guard let value = reader.string(forKey: ConfigKey(key.key), isSecret: key.isSecret)?
                .trimmingCharacters(in: .whitespaces), !value.isEmpty
            else { return nil }
            return value
        }
        func list(_ key: ConfigurationKey) -> [String] {
            (string(key) ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
        func integer(_ key: ConfigurationKey, default value: Int, range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
            guard let text = string(key) else { return value }
            guard let parsed = Int(text), range.contains(parsed) else {
                throw ConfigurationError(key, "must be an integer in \(range.lowerBound)…\(range.upperBound), got '\(text)'")
            }
            return parsed
        }
        func boolean(_ key: ConfigurationKey, default value: Bool) throws(ConfigurationError) -> Bool {
            guard let text = string(key)?.lowercased() else { return value }
            switch text {
            case "true", "1", "yes", "on": return true
            case "false", "0", "no", "off": return false
            default: throw ConfigurationError(key, "must be true or false, got '\(text)'")
            }
        }

        databaseURL = string(.databaseURL) ?? "sqlite:verdict.sqlite"
        guard databaseURL.hasPrefix("sqlite:") || databaseURL.hasPrefix("postgres://")
            || databaseURL.hasPrefix("postgresql://")
        else {
            throw ConfigurationError(.databaseURL, "must be sqlite:PATH or postgres://user:pass@host:port/db")
        }
        rulesDirectory = string(.rulesDirectory) ?? "Rules"
        host = string(.host) ?? "127.0.0.1"
        port = try integer(.port, default: 8080, range: 0...65535)
        guard let bundleId = string(.bundleId) else {
            throw ConfigurationError(.bundleId, "is required: the bundle id of the app whose notifications are accepted")
        }
        self.bundleId = bundleId

        var environments: Set<AppStoreEnvironment> = []
        for name in list(.environments).isEmpty ? [AppStoreEnvironment.production, .sandbox].map(\.rawValue) : list(.environments) {
            let environment = AppStoreEnvironment(rawValue: name)
            guard environment.isKnown else {
                let known = AppStoreEnvironment.knownValues.map(\.rawValue).joined(separator: ", ")
                throw ConfigurationError(.environments, "names an unknown environment '\(name)' (known: \(known))")
            }
            environments.insert(environment)
        }
        self.environments = environments

        if let text = string(.appAppleId) {
            guard let value = Int64(text), value > 0 else {
                throw ConfigurationError(.appAppleId, "must be the app's numeric App Apple ID, got '\(text)'")
            }
            appAppleId = value
        } else if environments.contains(.production) {
            throw ConfigurationError(.appAppleId, "is required when Production notifications are accepted")
        } else {
            appAppleId = nil
        }

        let rootFiles = list(.rootCertificates)
        if rootFiles.isEmpty {
            rootCertificates = [AppleRootCertificates.appleRootCAG3]
            rootCertificatesSource = "Apple Root CA - G3 (embedded)"
        } else {
            var roots: [Data] = []
            for file in rootFiles {
                do {
                    roots += try RootCertificateLoader.derCertificates(contentsOf: URL(fileURLWithPath: file))
                } catch {
                    throw ConfigurationError(.rootCertificates, "cannot use '\(file)': \(error)")
                }
            }
            rootCertificates = roots
            rootCertificatesSource = rootFiles.joined(separator: ",")
        }
        onlineChecks = try boolean(.onlineChecks, default: false)

        let keyId = string(.appStoreKeyId)
        let issuerId = string(.appStoreIssuerId)
        let keyFile = string(.appStorePrivateKeyFile)
        let missing = [(ConfigurationKey.appStoreKeyId, keyId), (.appStoreIssuerId, issuerId), (.appStorePrivateKeyFile, keyFile)]
            .filter { $0.1 == nil }.map(\.0.environmentVariable)
        if missing.isEmpty, let keyId, let issuerId, let keyFile {
            let pem: String
            do {
                pem = try String(contentsOfFile: keyFile, encoding: .utf8)
            } catch {
                throw ConfigurationError(.appStorePrivateKeyFile, "cannot be read: '\(keyFile)'")
            }
            do {
                _ = try SigningKey.load(pem: pem)
            } catch {
                throw ConfigurationError(.appStorePrivateKeyFile, "is not a PKCS#8 P-256 private key (.p8): '\(keyFile)'")
            }
            appStoreCredentials = AppStoreCredentials(keyId: keyId, issuerId: issuerId, privateKeyFile: keyFile, privateKeyPEM: pem)
            appStoreCredentialsProblem = nil
        } else if missing.count == 3 {
            appStoreCredentials = nil
            appStoreCredentialsProblem = "no In-App Purchase key configured (VERDICT_APPSTORE_KEY_ID, VERDICT_APPSTORE_ISSUER_ID, VERDICT_APPSTORE_PRIVATE_KEY_FILE)"
        } else {
            throw ConfigurationError(
                missing.first == ConfigurationKey.appStoreKeyId.environmentVariable ? .appStoreKeyId
                    : missing.first == ConfigurationKey.appStoreIssuerId.environmentVariable ? .appStoreIssuerId : .appStorePrivateKeyFile,
                "is missing while other In-App Purchase key settings are set (missing: \(missing.joined(separator: ", ")))"
            )
        }

        if let text = string(.appStoreAPIURL) {
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw ConfigurationError(.appStoreAPIURL, "must be an http(s) URL, got '\(text)'")
            }
            appStoreAPIURL = url
        } else {
            appStoreAPIURL = nil
        }
        apiTokens = list(.apiTokens)
        if apiTokens.contains(where: { $0.count < 16 }) {
            throw ConfigurationError(.apiTokens, "contains a token shorter than 16 characters")
        }
        if let text = string(.webhookURL) {
            guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                throw ConfigurationError(.webhookURL, "must be an http(s) URL, got '\(text)'")
            }
            webhookURL = url
            guard let secret = string(.webhookSecret) else {
                throw ConfigurationError(.webhookSecret, "is required when VERDICT_WEBHOOK_URL is set")
            }
            webhookSecret = secret
        } else {
            webhookURL = nil
            webhookSecret = string(.webhookSecret)
        }
        assumeConsent = try boolean(.assumeConsent, default: false)
        databaseTimeout = try integer(.databaseTimeout, default: 5, range: 1...300)
        historyWait = try integer(.historyWait, default: 30, range: 0...3600)
        attributionWindow = try integer(.attributionWindow, default: 30, range: 0...3650)
        consumptionGrace = try integer(.consumptionGrace, default: 600, range: 0...(6 * 3600))
        reconcileInterval = try integer(.reconcileInterval, default: 3600, range: 0...(7 * 86400))
        rulesReloadInterval = try integer(.rulesReloadInterval, default: 2, range: 0...3600)
        workerConcurrency = try integer(.workerConcurrency, default: 8, range: 1...256)
        logLevel = string(.logLevel) ?? "info"
        guard ["trace", "debug", "info", "notice", "warning", "error", "critical"].contains(logLevel) else {
            throw ConfigurationError(.logLevel, "must be one of trace, debug, info, notice, warning, error, critical")
        }
    }
}
