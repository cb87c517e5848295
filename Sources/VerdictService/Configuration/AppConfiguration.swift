import AppStoreServer
import Crypto
import Foundation

/// One app's own settings: the bundle id and App Apple ID its notifications carry, the
/// environments it accepts, its rules folder, its In-App Purchase key and App Store API address,
/// its webhook and its consent assumption. A deployment serves one or more apps
/// (``ServiceConfiguration/apps``); everything else in ``ServiceConfiguration`` is process-wide.
///
/// The same parser reads one app from today's single-app settings (flags, `VERDICT_*` variables,
/// the config file's top level) or from one entry of the config file's `"apps"`, where a setting
/// the entry leaves out is taken from the top level (but never `bundleId`, `appAppleId` or
/// `rules.dir`, which each entry sets itself).
public struct AppConfiguration: Sendable {
    public var bundleId: String
    /// Required when Production notifications are accepted.
    public var appAppleId: Int64?
    /// The environments whose notifications are accepted (default Production and Sandbox).
    public var environments: Set<AppStoreEnvironment>
    /// The app's rule bundle folder.
    public var rulesDirectory: String
    /// The app's In-App Purchase key; nil when not configured: API calls wait in the queue and
    /// `/readyz` says why (``appStoreCredentialsProblem``).
    public var appStoreCredentials: ServiceConfiguration.AppStoreCredentials?
    /// Why ``appStoreCredentials`` is nil (which settings are missing).
    public var appStoreCredentialsProblem: String?
    /// Overrides Apple's hosts (the simulator), for every environment.
    public var appStoreAPIURL: URL?
    /// Where the app's outbound events are POSTed (nil: no events), signed with ``webhookSecret``.
    public var webhookURL: URL?
    public var webhookSecret: String?
    /// Whether the app's terms grant consent to share consumption data: a customer without a
    /// consent-ledger entry is treated as consenting (an explicit refusal still wins).
    public var assumeConsent: Bool
}

extension AppConfiguration {
    /// The per-app settings, in documentation order: what an `"apps"` entry of the config file may
    /// hold. Every other setting is process-wide.
    public static let keys: [ConfigurationKey] = [
        .bundleId, .appAppleId, .environments, .rulesDirectory, .appStoreKeyId, .appStoreIssuerId,
        .appStorePrivateKeyFile, .appStoreAPIURL, .webhookURL, .webhookSecret, .assumeConsent,
    ]

    /// The per-app settings an `"apps"` entry must set itself: a top-level value is not inherited.
    static let ownKeys: [ConfigurationKey] = [.bundleId, .appAppleId, .rulesDirectory]

    /// Where one app's settings are read from.
    enum Source {
        /// Today's single-app settings: `bundleId` required, `rules.dir` defaulting to `Rules`.
        case topLevel
        /// Entry `position` of the config file's `"apps"` (`settings` reads the entry, then the top
        /// level): `bundleId` and `rules.dir` required in the entry itself.
        case entry(position: Int)
    }

    /// Reads and checks one app's settings. An error about an `"apps"` entry names the app (its
    /// bundle id, or its position when it has none).
    init(settings: SettingReader, source: Source) throws(ConfigurationError) {
        let purpose = "the bundle id of the app whose notifications are accepted"
        switch source {
        case .topLevel:
            try self.init(
                bundleId: settings.bundleId(.bundleId, purpose),
                rulesDirectory: settings.directory(.rulesDirectory, default: "Rules"),
                settings: settings
            )
        case .entry(let position):
            let own = settings.withoutDefaults
            let label = (try? own.bundleId(.bundleId, purpose)) ?? "apps[\(position)]"
            do throws(ConfigurationError) {
                let bundleId = try own.bundleId(.bundleId, purpose)
                guard own.string(.rulesDirectory) != nil else {
                    throw ConfigurationError(.rulesDirectory, "is required in each app entry: the folder of the app's rule bundle")
                }
                try self.init(bundleId: bundleId, rulesDirectory: own.directory(.rulesDirectory, default: ""), settings: settings)
            } catch {
                throw error.naming(app: label)
            }
        }
    }

    /// Reads the settings every app shares the checks of.
    private init(bundleId: String, rulesDirectory: String, settings: SettingReader) throws(ConfigurationError) {
        self.bundleId = bundleId
        self.rulesDirectory = rulesDirectory

        var environments: Set<AppStoreEnvironment> = []
        let names = settings.list(.environments)
        for name in names.isEmpty ? [AppStoreEnvironment.production, .sandbox].map(\.rawValue) : names {
            let environment = AppStoreEnvironment(rawValue: name)
            guard environment.isKnown else {
                let known = AppStoreEnvironment.knownValues.map(\.rawValue).joined(separator: ", ")
                throw ConfigurationError(.environments, "names an unknown environment '\(name)' (known: \(known))")
            }
            environments.insert(environment)
        }
        self.environments = environments

        if let text = settings.string(.appAppleId) {
            guard let value = Int64(text), value > 0 else {
                throw ConfigurationError(.appAppleId, "must be the app's numeric App Apple ID, got '\(text)'")
            }
            appAppleId = value
        } else if environments.contains(.production) {
            throw ConfigurationError(.appAppleId, "is required when Production notifications are accepted")
        } else {
            appAppleId = nil
        }

        (appStoreCredentials, appStoreCredentialsProblem) = try Self.credentials(settings)
        appStoreAPIURL = try settings.httpURL(.appStoreAPIURL)
        webhookURL = try settings.httpURL(.webhookURL)
        webhookSecret = settings.string(.webhookSecret)
        if webhookURL != nil, webhookSecret == nil {
            throw ConfigurationError(.webhookSecret, "is required when VERDICT_WEBHOOK_URL is set")
        }
        assumeConsent = try settings.boolean(.assumeConsent, default: false)
    }

    /// The In-App Purchase key: all three settings (the key file read and checked) or none (nil and
    /// why); two of three is an error naming the first missing one.
    private static func credentials(
        _ settings: SettingReader
    ) throws(ConfigurationError) -> (ServiceConfiguration.AppStoreCredentials?, String?) {
        let keyId = settings.string(.appStoreKeyId)
        let issuerId = settings.string(.appStoreIssuerId)
        let keyFile = settings.string(.appStorePrivateKeyFile)
        let missing = [(ConfigurationKey.appStoreKeyId, keyId), (.appStoreIssuerId, issuerId), (.appStorePrivateKeyFile, keyFile)]
            .filter { $0.1 == nil }.map(\.0)
        guard missing.isEmpty, let keyId, let issuerId, let keyFile else {
            guard missing.count == 3 else {
                throw ConfigurationError(
                    missing[0],
                    "is missing while other In-App Purchase key settings are set (missing: \(missing.map(\.environmentVariable).joined(separator: ", ")))"
                )
            }
            return (nil, "no In-App Purchase key configured (VERDICT_APPSTORE_KEY_ID, VERDICT_APPSTORE_ISSUER_ID, VERDICT_APPSTORE_PRIVATE_KEY_FILE)")
        }
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
        return (ServiceConfiguration.AppStoreCredentials(keyId: keyId, issuerId: issuerId, privateKeyFile: keyFile, privateKey: privateKey), nil)
    }
}
