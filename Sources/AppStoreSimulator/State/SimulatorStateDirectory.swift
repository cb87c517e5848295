import Foundation

/// A directory that keeps the simulator's long-lived secrets across restarts: the PKI (in
/// `pki/`, see ``SimulatorPKI/save(to:)``) and the issued In-App Purchase key
/// (`SubscriptionKey_<KEYID>.p8` plus `issued-key.json`) of the first app; each further app's key
/// in `apps/<bundle id>/` (see ``loadOrIssueKey(bundleId:)``). Everything else is in memory.
public struct SimulatorStateDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// A state directory at `url` (created on ``loadOrCreate()``).
    public init(url: URL) {
        self.url = url
    }

    /// Where the PKI lives.
    public var pkiDirectory: URL { url.appendingPathComponent("pki") }

    /// The root certificate (DER) a verifier must trust.
    public var rootCertificateURL: URL { pkiDirectory.appendingPathComponent(SimulatorPKI.FileName.rootCertificateDER) }

    /// What ``loadOrCreate()`` found or made.
    public struct Contents: Sendable {
        /// The certificate hierarchy.
        public let pki: SimulatorPKI
        /// The issued In-App Purchase key.
        public let issuedKey: IssuedInAppPurchaseKey
        /// The `.p8` file.
        public let keyURL: URL
        /// The root certificate, DER.
        public let rootCertificateURL: URL
        /// Whether anything was newly created (false: everything was reloaded).
        public let created: Bool
    }

    /// Loads the PKI and key, or issues and saves them. A new PKI names `ocspResponderURL` (when
    /// given) in its certificates, so online verification asks the simulator's own responder; an
    /// existing PKI keeps the URL it was issued with.
    public func loadOrCreate(ocspResponderURL: String? = nil) throws -> Contents {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        var created = false
        let pki: SimulatorPKI
        if FileManager.default.fileExists(atPath: pkiDirectory.appendingPathComponent(SimulatorPKI.FileName.leafKey).path) {
            pki = try SimulatorPKI.load(from: pkiDirectory)
        } else {
            pki = try SimulatorPKI(options: SimulatorPKI.Options(ocspResponderURL: ocspResponderURL))
            try pki.save(to: pkiDirectory)
            created = true
        }
        let key = try Self.loadOrIssueKey(in: url)
        return Contents(pki: pki, issuedKey: key.key, keyURL: key.url,
                        rootCertificateURL: rootCertificateURL, created: created || key.created)
    }

    /// The directory keeping the key of a further app: `apps/<bundleId>/`.
    public func appDirectory(bundleId: String) -> URL {
        url.appendingPathComponent("apps", isDirectory: true).appendingPathComponent(bundleId, isDirectory: true)
    }

    /// The issued In-App Purchase key of a further app (beyond the first, whose key
    /// ``loadOrCreate(ocspResponderURL:)`` returns), kept in ``appDirectory(bundleId:)``: loaded,
    /// or issued and saved. Returns the key and its `.p8` file.
    public func loadOrIssueKey(bundleId: String) throws -> (key: IssuedInAppPurchaseKey, url: URL) {
        let key = try Self.loadOrIssueKey(in: appDirectory(bundleId: bundleId))
        return (key.key, key.url)
    }

    private static func loadOrIssueKey(in directory: URL) throws
        -> (key: IssuedInAppPurchaseKey, url: URL, created: Bool)
    {
        if let existing = try IssuedInAppPurchaseKey.load(from: directory) {
            return (existing, directory.appendingPathComponent(existing.fileName), false)
        }
        let key = IssuedInAppPurchaseKey.issue()
        return (key, try key.save(to: directory), true)
    }
}
