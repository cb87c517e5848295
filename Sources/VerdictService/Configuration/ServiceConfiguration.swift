import AppStoreServer
import Configuration
import Crypto
import Foundation
import Logging
import VerdictStorage

/// Everything `verdict serve` is configured with, read once at start-up from a `ConfigReader`
/// (CLI flags, then `VERDICT_*` environment variables, then an optional JSON config file; see
/// ``ConfigurationSources``). Every value is parsed here into its type, so a bad setting stops
/// start-up with one ``ConfigurationError`` naming it, and nothing downstream parses a setting again.
public struct ServiceConfiguration: Sendable {
    /// The In-App Purchase key used for App Store Server API calls and offer signatures.
    public struct AppStoreCredentials: Sendable {
        public var keyId: String
        public var issuerId: String
        /// The `.p8` file's path (its contents are read at start-up, never logged).
        public var privateKeyFile: String
        /// The key read from ``privateKeyFile``.
        public var privateKey: P256.Signing.PrivateKey
    }

    public var databaseURL: DatabaseURL
    /// How long one database call (including the wait for a pooled PostgreSQL connection) may take
    /// before it fails as unavailable: intake then answers 503 instead of holding Apple's request.
    public var databaseTimeout: Duration
    /// The rule bundle folder.
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
    public var apiTokens: [APIToken]
    public var webhookURL: URL?
    public var webhookSecret: String?
    /// Whether the app's terms grant consent to share consumption data: a customer without a
    /// consent-ledger entry is treated as consenting (an explicit refusal still wins).
    public var assumeConsent: Bool
    /// How long a decision on a customer whose App Store history was never read waits for the first
    /// history sync, counted from the notification's arrival (zero: decide at once on what is stored).
    public var historyWait: Duration
    /// How long a refund request waits after it arrived for the app backend to report facts (ended
    /// early by facts reported with `"final": true`; zero decides at once).
    public var consumptionGrace: Duration
    /// How long (whole days) after an offer's expiry (or a decision without an offer) a customer's
    /// return is attributed to the decision; later returns are not.
    public var attributionWindow: Duration
    /// How long (whole days) after an offer decision the customer's purchases count as its net
    /// revenue (the console compares it between treatment and holdout).
    public var revenueWindow: Duration
    /// How long a Retention Messaging realtime request may take inside Verdict before it is
    /// answered so that Apple falls back (Apple waits about 700 ms, network included).
    public var retentionDeadline: Duration
    /// Time between automatic reconciliations with Get Notification History (zero: off).
    public var reconcileInterval: Duration
    /// Time between checks of the rules folder for changes (zero: only SIGHUP reloads).
    public var rulesReloadInterval: Duration
    /// How many jobs one process runs at once.
    public var workerConcurrency: Int
    /// How long a claimed job stays leased to this process without a renewal; running jobs renew
    /// it every third of it, so a stopped process's jobs run elsewhere within one lease.
    public var workerLease: Duration
    public var logLevel: Logger.Level
    /// Whether `/console` is served (`VERDICT_CONSOLE`, default true).
    public var consoleEnabled: Bool
    /// How long a console sign-in lasts.
    public var consoleSessionLifetime: Duration
    /// The address people reach the service at (`VERDICT_PUBLIC_URL`); https makes the console's
    /// cookie `Secure`.
    public var publicURL: URL?
    /// Requests per second each API token (and console session) may make on average (0: no
    /// limit), and how many at once (``rateLimitBurst``). Never applied to Apple's notifications
    /// or realtime requests, which carry no token.
    public var rateLimitPerSecond: Int
    public var rateLimitBurst: Int
    /// How long a client has to send its next whole request (headers and body), counted from the
    /// end of the previous answer: slower or idle clients are cut off.
    public var httpRequestTimeout: Duration
    /// How long a new connection has to send its first whole request: a connection that sends
    /// nothing (or too little) is closed this soon.
    public var httpFirstRequestTimeout: Duration
    /// Open connections served at once. Beyond them, the connection idle for the longest is closed
    /// to make room; a request is answered 503 only when every connection has one in progress.
    public var httpMaxConnections: Int
    /// Requests handled at once; one more is answered 503 with `Retry-After`.
    public var httpMaxConcurrentRequests: Int
    /// HTTPS instead of HTTP, with this certificate chain and key (nil: plain HTTP, e.g. behind a
    /// proxy that terminates TLS).
    public var tls: TLSIdentity?

    /// Reads and checks every setting.
    public init(reader: ConfigReader) throws(ConfigurationError) {
        let settings = SettingReader(reader: reader)
        func string(_ key: ConfigurationKey) -> String? { settings.string(key) }
        func list(_ key: ConfigurationKey) -> [String] { settings.list(key) }

        databaseURL = try settings.databaseURL(.databaseURL, default: "sqlite:verdict.sqlite")
        rulesDirectory = try settings.directory(.rulesDirectory, default: "Rules")
        host = try settings.host(.host, default: "127.0.0.1")
        port = try settings.integer(.port, default: 8080, range: 0...65535)
        guard let bundleId = string(.bundleId) else {
            throw ConfigurationError(.bundleId, "is required: the bundle id of the app whose notifications are accepted")
        }
        let bundleIdCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-_"))
        guard bundleId.unicodeScalars.allSatisfy({ $0.isASCII && bundleIdCharacters.contains($0) }) else {
            throw ConfigurationError(.bundleId, "must hold only letters, digits, '.', '-' and '_', got '\(bundleId)'")
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
        onlineChecks = try settings.boolean(.onlineChecks, default: false)

        let keyId = string(.appStoreKeyId)
        let issuerId = string(.appStoreIssuerId)
        let keyFile = string(.appStorePrivateKeyFile)
        let missing = [(ConfigurationKey.appStoreKeyId, keyId), (.appStoreIssuerId, issuerId), (.appStorePrivateKeyFile, keyFile)]
            .filter { $0.1 == nil }.map(\.0)
        if missing.isEmpty, let keyId, let issuerId, let keyFile {
            let pem: String
            do {
                pem = try String(contentsOfFile: keyFile, encoding: .utf8)
            } catch {
                throw ConfigurationError(.appStorePrivateKeyFile, "cannot be read: '\(keyFile)'")
            }
            let privateKey: P256.Signing.PrivateKey
            do {
                privateKey = try SigningKey.load(pem: pem)
            } catch {
                throw ConfigurationError(.appStorePrivateKeyFile, "is not a PKCS#8 P-256 private key (.p8): '\(keyFile)'")
            }
            appStoreCredentials = AppStoreCredentials(keyId: keyId, issuerId: issuerId, privateKeyFile: keyFile, privateKey: privateKey)
            appStoreCredentialsProblem = nil
        } else if missing.count == 3 {
            appStoreCredentials = nil
            appStoreCredentialsProblem = "no In-App Purchase key configured (VERDICT_APPSTORE_KEY_ID, VERDICT_APPSTORE_ISSUER_ID, VERDICT_APPSTORE_PRIVATE_KEY_FILE)"
        } else {
            throw ConfigurationError(
                missing[0],
                "is missing while other In-App Purchase key settings are set (missing: \(missing.map(\.environmentVariable).joined(separator: ", ")))"
            )
        }

        appStoreAPIURL = try settings.httpURL(.appStoreAPIURL)
        apiTokens = list(.apiTokens).map(APIToken.init(entry:))
        if apiTokens.contains(where: { $0.token.count < 16 }) {
            throw ConfigurationError(.apiTokens, "contains a token shorter than 16 characters")
        }
        webhookURL = try settings.httpURL(.webhookURL)
        webhookSecret = string(.webhookSecret)
        if webhookURL != nil, webhookSecret == nil {
            throw ConfigurationError(.webhookSecret, "is required when VERDICT_WEBHOOK_URL is set")
        }
        assumeConsent = try settings.boolean(.assumeConsent, default: false)
        databaseTimeout = try settings.duration(.databaseTimeout, default: 5, range: 1...300)
        historyWait = try settings.duration(.historyWait, default: 30, range: 0...3600)
        attributionWindow = try settings.duration(.attributionWindow, default: 30, range: 0...3650, unit: .seconds(86_400))
        revenueWindow = try settings.duration(.revenueWindow, default: 365, range: 0...3650, unit: .seconds(86_400))
        retentionDeadline = try settings.duration(.retentionDeadline, default: 400, range: 20...5000, unit: .milliseconds(1))
        consumptionGrace = try settings.duration(.consumptionGrace, default: 600, range: 0...(6 * 3600))
        reconcileInterval = try settings.duration(.reconcileInterval, default: 3600, range: 0...(7 * 86400))
        rulesReloadInterval = try settings.duration(.rulesReloadInterval, default: 2, range: 0...3600)
        workerConcurrency = try settings.integer(.workerConcurrency, default: 8, range: 1...256)
        workerLease = try settings.duration(.workerLease, default: 15, range: 3...600)
        logLevel = try settings.logLevel(.logLevel, default: .info)
        consoleEnabled = try settings.boolean(.console, default: true)
        consoleSessionLifetime = .seconds(try settings.integer(.consoleSessionHours, default: 12, range: 1...720) * 3600)
        publicURL = try settings.httpURL(.publicURL)
        rateLimitPerSecond = try settings.integer(.rateLimitPerSecond, default: 500, range: 0...100_000)
        rateLimitBurst = try settings.integer(.rateLimitBurst, default: 1000, range: 1...1_000_000)
        httpRequestTimeout = try settings.duration(.httpRequestTimeout, default: 30, range: 1...3600)
        httpFirstRequestTimeout = try settings.duration(.httpFirstRequestTimeout, default: 10, range: 1...3600)
        httpMaxConnections = try settings.integer(.httpMaxConnections, default: 1024, range: 1...1_000_000)
        httpMaxConcurrentRequests = try settings.integer(.httpMaxConcurrentRequests, default: 256, range: 1...100_000)
        switch (string(.tlsCertificateFile), string(.tlsKeyFile)) {
        case (nil, nil): tls = nil
        case (let certificate?, let key?): tls = try TLSIdentity(certificateFile: certificate, keyFile: key)
        case (nil, _): throw ConfigurationError(.tlsCertificateFile, "is missing while VERDICT_TLS_KEY_FILE is set")
        case (_, nil): throw ConfigurationError(.tlsKeyFile, "is missing while VERDICT_TLS_CERTIFICATE_FILE is set")
        }
    }
}
