import Testing
import VerdictService

/// One invalid value of one setting, on top of a valid minimal configuration (bundle id, Sandbox
/// only): the table `ConfigurationTests` runs, with at least one row for every ``ConfigurationKey``.
/// Rows with a config file (``configFile``) list several apps: an error about an app entry must
/// name the app (``app``).
struct InvalidSetting: Sendable, CustomTestStringConvertible {
    /// The setting the error must name.
    var key: ConfigurationKey
    /// Its value; nil leaves it unset (a required setting missing).
    var value: String?
    /// Other settings the case needs.
    var others: [ConfigurationKey: String] = [:]
    /// The JSON config file of the case; with one, the minimal settings are left to the file.
    var configFile: String?
    /// The app the error must name: its bundle id, or its position (`apps[1]`).
    var app: String?

    init(_ key: ConfigurationKey, _ value: String?, others: [ConfigurationKey: String] = [:]) {
        self.key = key
        self.value = value
        self.others = others
    }

    /// A config file listing `apps` (``entry(_:_:)``) beside the top-level members `topLevel`
    /// (JSON members, comma-separated), refused naming `key` (and `app`).
    static func file(
        _ key: ConfigurationKey, app: String? = nil, apps: [String], topLevel: String = "",
        others: [ConfigurationKey: String] = [:]
    ) -> InvalidSetting {
        var row = InvalidSetting(key, others[key], others: others)
        row.app = app
        let members = [topLevel, #""apps": [\#(apps.joined(separator: ", "))]"#].filter { !$0.isEmpty }
        row.configFile = "{\(members.joined(separator: ", "))}"
        return row
    }

    /// An `"apps"` entry accepting Sandbox only, with its rules folder, `bundleId` (none when nil)
    /// and further JSON `members`.
    static func entry(_ bundleId: String?, _ members: String = "") -> String {
        let own = [bundleId.map { #""bundleId": "\#($0)""# } ?? "", #""environments": ["Sandbox"], "rules": {"dir": "Rules"}"#, members]
        return "{\(own.filter { !$0.isEmpty }.joined(separator: ", "))}"
    }

    var testDescription: String {
        guard let configFile else { return "\(key.environmentVariable)=\(value ?? "<unset>")" }
        return "\(key.key) in \(app ?? "the file"): \(configFile)"
    }

    /// The `VERDICT_*` environment of the case.
    var environment: [String: String] {
        var environment = configFile == nil ? ["VERDICT_BUNDLE_ID": "com.example", "VERDICT_ENVIRONMENTS": "Sandbox"] : [:]
        for (other, value) in others { environment[other.environmentVariable] = value }
        environment[key.environmentVariable] = value
        return environment
    }

    /// How the error's one line must start: the app and the setting as an entry spells it, or the
    /// setting's variable and flag.
    var expectedPrefix: String {
        guard let app else { return "configuration error: \(key.environmentVariable) (\(key.flag)) " }
        return "configuration error: app \(app): \(key.key) "
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
    ] + appsTable

    /// A secret in the rows below: no error may show it.
    private static let secretToken = "hunter2secret-0123456789"

    /// Config files listing several apps, and their refusals.
    static let appsTable: [InvalidSetting] = [
        .file(.bundleId, app: "apps[1]", apps: [entry("com.a"), entry(nil)]),
        .file(.bundleId, app: "apps[1]", apps: [entry("com.a"), entry("com a")]),
        .file(.rulesDirectory, app: "com.b", apps: [entry("com.a"), #"{"bundleId": "com.b", "environments": ["Sandbox"]}"#]),
        // The top level's rules folder is no app's: each entry names its own.
        .file(.rulesDirectory, app: "com.b", apps: [entry("com.a"), #"{"bundleId": "com.b", "environments": ["Sandbox"]}"#],
              others: [.rulesDirectory: "Rules"]),
        .file(.rulesDirectory, app: "com.a", apps: [#"{"bundleId": "com.a", "environments": ["Sandbox"], "rules": {"dir": "/dev/null"}}"#]),
        .file(.bundleId, app: "com.a", apps: [entry("com.a"), entry("com.b"), entry("com.a")]),
        .file(.appAppleId, app: "com.b", apps: [entry("com.a", #""appAppleId": 123"#), entry("com.b", #""appAppleId": 123"#)]),
        .file(.appAppleId, app: "com.b", apps: [entry("com.a"), #"{"bundleId": "com.b", "rules": {"dir": "Rules"}}"#]),
        .file(.environments, app: "com.b", apps: [entry("com.a"), #"{"bundleId": "com.b", "environments": ["Staging"], "rules": {"dir": "Rules"}}"#]),
        .file(.apps, app: "apps[1]", apps: [entry("com.a"), #""com.b""#]),
        .file(.apps, app: "com.a", apps: [entry("com.a", #""rules": {"folder": "x"}"#)]),
        .file(.port, app: "com.a", apps: [entry("com.a", #""port": 9000"#)]),
        .file(.webhookSecret, app: "com.b", apps: [entry("com.a"), entry("com.b", #""webhook": {"url": "https://hooks.example.com/b"}"#)]),
        // The key id is shared from the top level; the entry lacks the rest of the key.
        .file(.appStoreIssuerId, app: "com.b", apps: [entry("com.b")], others: [.appStoreKeyId: "KEY123"]),
        .file(.assumeConsent, app: "com.a", apps: [entry("com.a", #""assumeConsent": "perhaps""#)]),
        // Bundle id and App Apple ID are each app's own: beside "apps" they are refused.
        .file(.bundleId, apps: [entry("com.a")], others: [.bundleId: "com.example"]),
        .file(.appAppleId, apps: [entry("com.a")], topLevel: #""appAppleId": 123"#),
        .file(.configFile, apps: []),
        .file(.configFile, apps: [entry("com.a")], topLevel: #""rootCertificates": ["root.cer", 3]"#),
        .file(.configFile, apps: [entry("com.a")], topLevel: #""publicUrl": [{"url": "https://verdict.example.com"}]"#),
        .file(.apiTokens, apps: [entry("com.a")], topLevel: #""apiTokens": ["\#(secretToken)", 3]"#),
        .file(.apiTokens, apps: [entry("com.a")], topLevel: #""apiTokens": [{"token": "\#(secretToken)", "role": "app", "apps": ["com.c"]}]"#),
        .file(.apiTokens, apps: [entry("com.a")], topLevel: #""apiTokens": [{"token": "\#(secretToken)", "role": "app", "apps": []}]"#),
        .file(.apiTokens, apps: [entry("com.a")], topLevel: #""apiTokens": [{"token": "\#(secretToken)", "role": "admin"}]"#),
        .file(.apiTokens, apps: [entry("com.a")], topLevel: #""apiTokens": [{"token": "\#(secretToken)", "role": "app", "app": "com.a"}]"#),
        .file(.apiTokens, apps: [entry("com.a")], topLevel: #""apiTokens": [{"role": "app", "apps": ["com.a"]}]"#),
        .file(.apiTokens, apps: [entry("com.a")], topLevel: #""apiTokens": [{"token": "hunter2secret", "role": "app"}]"#),
    ]
}
