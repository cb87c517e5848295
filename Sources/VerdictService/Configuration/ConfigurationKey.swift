/// One setting of `verdict serve`: its swift-configuration key, environment variable and CLI flag.
///
/// The environment variable is `VERDICT_` + the key in upper snake case (`appstore.keyId` →
/// `VERDICT_APPSTORE_KEY_ID`); the flag is the key in kebab case (`--appstore-key-id`); in a JSON
/// config file the key's components nest (`{"appstore": {"keyId": "…"}}`). These names are the
/// public contract documented in docs/configuration.md.
public struct ConfigurationKey: Sendable, Hashable, CustomStringConvertible {
    /// The swift-configuration key, dot-separated, components in lower camel case.
    public let key: String
    /// Whether the value is a secret (redacted from logs and errors).
    public let isSecret: Bool
    /// The flag when it is not the key in kebab case (`--config` for `config.file`).
    private let customFlag: String?

    public init(_ key: String, isSecret: Bool = false, flag: String? = nil) {
        self.key = key
        self.isSecret = isSecret
        self.customFlag = flag
    }

    /// `VERDICT_DATABASE_URL` for `database.url`.
    public var environmentVariable: String { "VERDICT_" + words.map { $0.uppercased() }.joined(separator: "_") }

    /// `--database-url` for `database.url`.
    public var flag: String { customFlag ?? "--" + words.joined(separator: "-") }

    public var description: String { environmentVariable }

    /// The key's words: components split at dots and lower-to-upper case changes.
    private var words: [String] {
        var result: [String] = []
        for component in key.split(separator: ".") {
            var word = ""
            for character in component {
                if character.isUppercase, !word.isEmpty {
                    result.append(word)
                    word = ""
                }
                word.append(character.lowercased())
            }
            if !word.isEmpty { result.append(word) }
        }
        return result
    }
}

extension ConfigurationKey {
    public static let databaseURL = Self("database.url")
    public static let databaseTimeout = Self("database.timeout")
    public static let rulesDirectory = Self("rules.dir")
    public static let host = Self("host")
    public static let port = Self("port")
    public static let bundleId = Self("bundleId")
    public static let appAppleId = Self("appAppleId")
    public static let environments = Self("environments")
    public static let rootCertificates = Self("rootCertificates")
    public static let onlineChecks = Self("onlineChecks")
    public static let appStoreKeyId = Self("appstore.keyId")
    public static let appStoreIssuerId = Self("appstore.issuerId")
    public static let appStorePrivateKeyFile = Self("appstore.privateKeyFile")
    public static let appStoreAPIURL = Self("appstore.apiUrl")
    public static let apiTokens = Self("apiTokens", isSecret: true)
    public static let webhookURL = Self("webhook.url")
    public static let webhookSecret = Self("webhook.secret", isSecret: true)
    public static let reconcileInterval = Self("reconcileInterval")
    public static let historyWait = Self("historyWait")
    public static let attributionWindow = Self("attributionWindow")
    public static let revenueWindow = Self("revenueWindow")
    public static let retentionDeadline = Self("retention.deadline")
    public static let consumptionGrace = Self("consumptionGrace")
    public static let rulesReloadInterval = Self("rules.reloadInterval")
    public static let workerConcurrency = Self("worker.concurrency")
    public static let workerLease = Self("worker.lease")
    public static let assumeConsent = Self("assumeConsent")
    public static let logLevel = Self("log.level")
    public static let console = Self("console")
    public static let consoleSessionHours = Self("console.sessionHours")
    public static let publicURL = Self("publicUrl")
    public static let rateLimitPerSecond = Self("rateLimit.perSecond")
    public static let rateLimitBurst = Self("rateLimit.burst")
    public static let httpRequestTimeout = Self("http.requestTimeout")
    public static let httpFirstRequestTimeout = Self("http.firstRequestTimeout")
    public static let httpMaxConnections = Self("http.maxConnections")
    public static let httpMaxConcurrentRequests = Self("http.maxConcurrentRequests")
    public static let tlsCertificateFile = Self("tls.certificateFile")
    public static let tlsKeyFile = Self("tls.keyFile")
    /// The config file's `"apps"`, one object of per-app settings per app: file-only (no variable or
    /// flag), so it is not in ``all``; an error about it names the entry (``ConfigurationError/app``).
    public static let apps = Self("apps")
    /// The JSON config file itself (`VERDICT_CONFIG_FILE` or `--config`): where settings are read
    /// from, not a setting of its own, so it is not in ``all``.
    public static let configFile = Self("config.file", flag: "--config")

    /// Every setting, in documentation order.
    public static let all: [Self] = [
        .databaseURL, .databaseTimeout, .rulesDirectory, .rulesReloadInterval, .host, .port, .bundleId, .appAppleId, .environments, .rootCertificates,
        .onlineChecks, .appStoreKeyId, .appStoreIssuerId, .appStorePrivateKeyFile, .appStoreAPIURL, .apiTokens,
        .webhookURL, .webhookSecret, .assumeConsent, .consumptionGrace, .historyWait, .attributionWindow, .revenueWindow, .retentionDeadline, .reconcileInterval, .workerConcurrency, .workerLease, .logLevel,
        .console, .consoleSessionHours, .publicURL, .rateLimitPerSecond, .rateLimitBurst, .httpFirstRequestTimeout, .httpRequestTimeout,
        .httpMaxConnections, .httpMaxConcurrentRequests, .tlsCertificateFile, .tlsKeyFile,
    ]
}
