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
    /// The apps this deployment serves, in configuration order; never empty. One app from today's
    /// single-app settings, or one per entry of the config file's `"apps"`.
    public var apps: [AppConfiguration]
    public var host: String
    public var port: Int
    /// DER bytes of the trusted roots; Apple Root CA - G3 unless configured.
    public var rootCertificates: [Data]
    /// Where the roots came from, for `/readyz` and logs.
    public var rootCertificatesSource: String
    public var onlineChecks: Bool
    /// Bearer tokens app backends present, each with the apps it acts for; empty: app-backend
    /// endpoints answer 401.
    public var apiTokens: [APIToken]
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

        databaseURL = try settings.databaseURL(.databaseURL, default: "sqlite:verdict.sqlite")
        host = try settings.host(.host, default: "127.0.0.1")
        port = try settings.integer(.port, default: 8080, range: 0...65535)
        apps = try Self.apps(reader: reader, settings: settings)

        let rootFiles = settings.list(.rootCertificates)
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
        apiTokens = try APIToken.configured(reader: reader, settings: settings, apps: Set(apps.map(\.bundleId)))
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
        switch (settings.string(.tlsCertificateFile), settings.string(.tlsKeyFile)) {
        case (nil, nil): tls = nil
        case (let certificate?, let key?): tls = try TLSIdentity(certificateFile: certificate, keyFile: key)
        case (nil, _): throw ConfigurationError(.tlsCertificateFile, "is missing while VERDICT_TLS_KEY_FILE is set")
        case (_, nil): throw ConfigurationError(.tlsKeyFile, "is missing while VERDICT_TLS_CERTIFICATE_FILE is set")
        }
    }
}

extension ServiceConfiguration {
    /// The apps: one per entry of the config file's `"apps"` (each entry read on its own, the top
    /// level as its defaults), or one from today's single-app settings without it. Two apps may not
    /// share a bundle id or an App Apple ID.
    static func apps(reader: ConfigReader, settings: SettingReader) throws(ConfigurationError) -> [AppConfiguration] {
        guard let count = reader.int(forKey: ConfigurationFile.appCountKey), count > 0 else {
            return [try AppConfiguration(settings: settings, source: .topLevel)]
        }
        for key in [ConfigurationKey.bundleId, .appAppleId] where settings.string(key) != nil {
            throw ConfigurationError(key, "is set beside the config file's \"apps\": set it in each app entry instead")
        }
        var apps: [AppConfiguration] = []
        for position in 0..<count {
            let entry = SettingReader(reader: reader.scoped(to: ConfigurationFile.appKey(position)), defaults: reader)
            let app = try AppConfiguration(settings: entry, source: .entry(position: position))
            if let other = apps.firstIndex(where: { $0.bundleId == app.bundleId }) {
                throw ConfigurationError(.bundleId, "is set in both apps[\(other)] and apps[\(position)]: each app needs its own entry", app: app.bundleId)
            }
            if let appAppleId = app.appAppleId, let other = apps.firstIndex(where: { $0.appAppleId == appAppleId }) {
                throw ConfigurationError(.appAppleId, "\(appAppleId) is also the App Apple ID of app \(apps[other].bundleId): each app has its own", app: app.bundleId)
            }
            apps.append(app)
        }
        return apps
    }
}
