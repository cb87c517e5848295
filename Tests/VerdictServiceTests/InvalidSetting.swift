import Testing
import VerdictService

/// One invalid value of one setting, on top of a valid minimal configuration (bundle id, Sandbox
/// only): the table `ConfigurationTests` runs, with at least one row for every ``ConfigurationKey``.
struct InvalidSetting: Sendable, CustomTestStringConvertible {
    /// The setting the error must name.
    var key: ConfigurationKey
    /// Its value; nil leaves it unset (a required setting missing).
    var value: String?
    /// Other settings the case needs.
    var others: [ConfigurationKey: String] = [:]

    init(_ key: ConfigurationKey, _ value: String?, others: [ConfigurationKey: String] = [:]) {
        self.key = key
        self.value = value
        self.others = others
    }

    var testDescription: String { "\(key.environmentVariable)=\(value ?? "<unset>")" }

    /// The `VERDICT_*` environment of the case.
    var environment: [String: String] {
        var environment = ["VERDICT_BUNDLE_ID": "com.example", "VERDICT_ENVIRONMENTS": "Sandbox"]
        for (other, value) in others { environment[other.environmentVariable] = value }
        environment[key.environmentVariable] = value
        return environment
    }

    private static let keyFileMissing: [ConfigurationKey: String] = [.appStoreKeyId: "KEY123", .appStoreIssuerId: "issuer"]

    static let table: [InvalidSetting] = [
        .init(.databaseURL, "postgres://user:hunter2secret@host:notaport/db"),
        .init(.databaseURL, "postgres://"),
        .init(.databaseURL, "mysql://x"),
        .init(.databaseURL, "postgres://user:hunter2secret@host/db?pool=3"),
        .init(.databaseURL, "sqlite:"),
        .init(.databaseTimeout, "0"),
        .init(.databaseTimeout, "301"),
        .init(.rulesDirectory, "/dev/null"),
        .init(.rulesReloadInterval, "-1"),
        .init(.rulesReloadInterval, "3601"),
        .init(.host, "not a host"),
        .init(.host, "http://example.com"),
        .init(.port, "70000"),
        .init(.port, "eighty"),
        .init(.bundleId, nil),
        .init(.bundleId, "com.example app"),
        .init(.appAppleId, "x"),
        .init(.appAppleId, "0"),
        .init(.appAppleId, nil, others: [.environments: "Production"]),
        .init(.environments, "Staging"),
        .init(.rootCertificates, "/nonexistent/root.cer"),
        .init(.rootCertificates, "/dev/null"),
        .init(.onlineChecks, "maybe"),
        .init(.appStoreKeyId, nil, others: [.appStoreIssuerId: "issuer", .appStorePrivateKeyFile: "/dev/null"]),
        .init(.appStoreIssuerId, nil, others: [.appStoreKeyId: "KEY123"]),
        .init(.appStorePrivateKeyFile, nil, others: keyFileMissing),
        .init(.appStorePrivateKeyFile, "/nonexistent/key.p8", others: keyFileMissing),
        .init(.appStorePrivateKeyFile, "/dev/null", others: keyFileMissing),
        .init(.appStoreAPIURL, "ftp://x.example"),
        .init(.appStoreAPIURL, "not a url"),
        .init(.apiTokens, "hunter2secret"),
        .init(.webhookURL, "mailto:ops@example.com", others: [.webhookSecret: "webhook-secret"]),
        .init(.webhookSecret, nil, others: [.webhookURL: "https://hooks.example.com/verdict"]),
        .init(.assumeConsent, "perhaps"),
        .init(.consumptionGrace, "21601"),
        .init(.historyWait, "-1"),
        .init(.historyWait, "3601"),
        .init(.attributionWindow, "x"),
        .init(.attributionWindow, "3651"),
        .init(.revenueWindow, "-1"),
        .init(.revenueWindow, "3651"),
        .init(.tlsCertificateFile, "/nonexistent/cert.pem", others: [.tlsKeyFile: "/nonexistent/key.pem"]),
        .init(.tlsKeyFile, nil, others: [.tlsCertificateFile: "/nonexistent/cert.pem"]),
        .init(.tlsCertificateFile, nil, others: [.tlsKeyFile: "/nonexistent/key.pem"]),
        .init(.rateLimitPerSecond, "-1"),
        .init(.rateLimitBurst, "0"),
        .init(.httpRequestTimeout, "0"),
        .init(.httpFirstRequestTimeout, "0"),
        .init(.httpMaxConnections, "0"),
        .init(.httpMaxConcurrentRequests, "many"),
        .init(.retentionDeadline, "19"),
        .init(.retentionDeadline, "5001"),
        .init(.retentionDeadline, "0.4s"),
        .init(.reconcileInterval, "604801"),
        .init(.workerConcurrency, "0"),
        .init(.workerConcurrency, "257"),
        .init(.workerLease, "2"),
        .init(.workerLease, "601"),
        .init(.workerLease, "fifteen"),
        .init(.logLevel, "loud"),
        .init(.console, "sometimes"),
        .init(.consoleSessionHours, "0"),
        .init(.consoleSessionHours, "721"),
        .init(.publicURL, "verdict.example.com"),
    ]
}
