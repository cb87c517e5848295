import ArgumentParser
import Configuration
import Foundation
import Logging
import VerdictService

/// The settings of the service as CLI flags. Each flag has the same name as its `VERDICT_*`
/// environment variable (`--database-url` ↔ `VERDICT_DATABASE_URL`); a flag given on the command
/// line wins over the environment, which wins over the `--config` JSON file.
struct ServiceOptions: ParsableArguments {
    @Option(help: "sqlite:PATH or postgres://user:pass@host:port/db (default sqlite:verdict.sqlite).")
    var databaseUrl: String?
    @Option(help: "Seconds a database call may take before intake answers 503 (default 5).")
    var databaseTimeout: String?
    @Option(help: "Rule bundle folder (default Rules).")
    var rulesDir: String?
    @Option(help: "Interface to listen on (default 127.0.0.1).")
    var host: String?
    @Option(help: "Port to listen on (default 8080).")
    var port: String?
    @Option(help: "Bundle id of the app whose notifications are accepted (required, unless the config file lists \"apps\").")
    var bundleId: String?
    @Option(help: "The app's App Apple ID (required when Production is accepted).")
    var appAppleId: String?
    @Option(help: "Accepted environments, comma-separated (default Production,Sandbox).")
    var environments: String?
    @Option(help: "Comma-separated DER or PEM root certificate files to trust (default: Apple Root CA - G3).")
    var rootCertificates: String?
    @Option(help: "OCSP revocation checks: true or false (default false).")
    var onlineChecks: String?
    @Option(help: "In-App Purchase key id.")
    var appstoreKeyId: String?
    @Option(help: "App Store Connect issuer id.")
    var appstoreIssuerId: String?
    @Option(help: "In-App Purchase private key file (.p8).")
    var appstorePrivateKeyFile: String?
    @Option(help: "Base URL override for the App Store Server API (e.g. the simulator).")
    var appstoreApiUrl: String?
    @Option(help: "Comma-separated bearer tokens for app backends (prefer the environment variable).")
    var apiTokens: String?
    @Option(help: "URL receiving outbound events.")
    var webhookUrl: String?
    @Option(help: "HMAC secret for outbound events (prefer the environment variable).")
    var webhookSecret: String?
    @Option(help: "Treat customers without a consent-ledger entry as consenting: true or false (default false).")
    var assumeConsent: String?
    @Option(help: "Seconds between checks of the rules folder for changes (default 2; 0: only SIGHUP reloads).")
    var rulesReloadInterval: String?
    @Option(help: "Seconds a first decision waits for the customer's App Store history (default 30; 0: never).")
    var historyWait: String?
    @Option(help: "Seconds a refund request waits for the app backend's facts (default 600; 0: decide at once).")
    var consumptionGrace: String?
    @Option(help: "Days after an offer's expiry during which a return is credited to it (default 30).")
    var attributionWindow: String?
    @Option(help: "Days after an offer decision during which the customer's purchases count as its net revenue (default 365).")
    var revenueWindow: String?
    @Option(help: "Milliseconds a Retention Messaging realtime request may take before Apple's fallback is answered (default 400).")
    var retentionDeadline: String?
    @Option(help: "Seconds between automatic reconciliations with Notification History (default 3600; 0 turns it off).")
    var reconcileInterval: String?
    @Option(help: "Jobs run at once by this process (default 8).")
    var workerConcurrency: String?
    @Option(help: "Seconds a claimed job stays leased to this process without a renewal (default 15).")
    var workerLease: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical (default info).")
    var logLevel: String?
    @Option(help: "Serve the console at /console: true or false (default true).")
    var console: String?
    @Option(help: "Hours a console sign-in lasts (default 12).")
    var consoleSessionHours: String?
    @Option(help: "The address people reach the service at (https makes the console's cookie Secure).")
    var publicUrl: String?
    @Option(help: "Requests per second each API token or console session may make on average (default 500; 0: no limit).")
    var rateLimitPerSecond: String?
    @Option(help: "Requests each API token or console session may make at once (default 1000).")
    var rateLimitBurst: String?
    @Option(help: "Seconds a new connection has to send its first whole request before it is closed (default 10).")
    var httpFirstRequestTimeout: String?
    @Option(help: "Seconds a client has to send its next whole request after an answer before it is cut off (default 30).")
    var httpRequestTimeout: String?
    @Option(help: "Open connections served at once; beyond them the longest-idle one is closed, or requests answered 503 (default 1024).")
    var httpMaxConnections: String?
    @Option(help: "Requests handled at once; beyond them 503 with Retry-After (default 256).")
    var httpMaxConcurrentRequests: String?
    @Option(help: "PEM certificate chain: serve HTTPS (with --tls-key-file).")
    var tlsCertificateFile: String?
    @Option(help: "PEM private key of the TLS certificate.")
    var tlsKeyFile: String?
    @Option(help: "JSON config file (also VERDICT_CONFIG_FILE); it may list several apps under \"apps\".")
    var config: String?

    /// The flags given, by configuration key.
    var flags: [ConfigurationKey: String] {
        let pairs: [(ConfigurationKey, String?)] = [
            (.databaseURL, databaseUrl), (.databaseTimeout, databaseTimeout), (.rulesDirectory, rulesDir),
            (.rulesReloadInterval, rulesReloadInterval), (.host, host), (.port, port),
            (.bundleId, bundleId), (.appAppleId, appAppleId), (.environments, environments),
            (.rootCertificates, rootCertificates), (.onlineChecks, onlineChecks), (.appStoreKeyId, appstoreKeyId),
            (.appStoreIssuerId, appstoreIssuerId), (.appStorePrivateKeyFile, appstorePrivateKeyFile),
            (.appStoreAPIURL, appstoreApiUrl), (.apiTokens, apiTokens), (.webhookURL, webhookUrl),
            (.webhookSecret, webhookSecret), (.assumeConsent, assumeConsent), (.historyWait, historyWait),
            (.attributionWindow, attributionWindow), (.revenueWindow, revenueWindow), (.retentionDeadline, retentionDeadline), (.consumptionGrace, consumptionGrace),
            (.reconcileInterval, reconcileInterval),
            (.workerConcurrency, workerConcurrency), (.workerLease, workerLease), (.logLevel, logLevel), (.console, console),
            (.consoleSessionHours, consoleSessionHours), (.publicURL, publicUrl),
            (.rateLimitPerSecond, rateLimitPerSecond), (.rateLimitBurst, rateLimitBurst), (.httpFirstRequestTimeout, httpFirstRequestTimeout),
            (.httpRequestTimeout, httpRequestTimeout),
            (.httpMaxConnections, httpMaxConnections), (.httpMaxConcurrentRequests, httpMaxConcurrentRequests),
            (.tlsCertificateFile, tlsCertificateFile), (.tlsKeyFile, tlsKeyFile),
        ]
        var result: [ConfigurationKey: String] = [:]
        for (key, value) in pairs { if let value { result[key] = value } }
        return result
    }

    /// Reads and checks the configuration; a bad setting exits 78 with its one-line explanation.
    func configuration() async throws -> ServiceConfiguration {
        do throws(ConfigurationError) {
            let reader = try await ConfigurationSources.reader(flags: flags, configFile: config)
            return try ServiceConfiguration(reader: reader)
        } catch {
            throw error.exitCode()
        }
    }

    /// Routes swift-log to JSON lines on standard error at `level`; with `metadataProvider`, each
    /// line also carries what it provides (the current trace's ids).
    static func bootstrapLogging(level: Logger.Level, metadataProvider: Logger.MetadataProvider? = nil) -> Logger {
        LoggingSystem.bootstrap({ label, provider in
            var handler = JSONLogHandler(label: label, metadataProvider: provider)
            handler.logLevel = level
            return handler
        }, metadataProvider: metadataProvider)
        return Logger(label: "verdict")
    }
}
