import Foundation

/// A directory that keeps the simulator's long-lived secrets across restarts: the PKI (in
/// `pki/`, see ``SimulatorPKI/save(to:)``) and the issued In-App Purchase key
/// (`SubscriptionKey_<KEYID>.p8` plus `issued-key.json`). Everything else is in memory.
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
        let key: IssuedInAppPurchaseKey
        if let existing = try IssuedInAppPurchaseKey.load(from: url) {
            key = existing
        } else {
            key = .issue()
            try key.save(to: url)
            created = true
        }
        return Contents(pki: pki, issuedKey: key, keyURL: url.appendingPathComponent(key.fileName),
                        rootCertificateURL: rootCertificateURL, created: created)
    }
}
