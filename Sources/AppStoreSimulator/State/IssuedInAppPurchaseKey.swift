import Crypto
import Foundation

/// The In-App Purchase key the simulated App Store Connect "issued" to the developer: a P-256
/// private key with its 10-character key id and the team's issuer id. API requests must carry a
/// JWT signed with it.
///
/// This is a local test key created by the simulator; writing it out as
/// `SubscriptionKey_<KEYID>.p8` (PKCS#8 PEM, like the file App Store Connect lets you download) is
/// the point of the type.
public struct IssuedInAppPurchaseKey: Sendable {
    /// The key id (`kid` of API tokens), 10 uppercase letters and digits.
    public let keyId: String
    /// The issuer id (`iss` of API tokens), a lowercase UUID.
    public let issuerId: String
    /// The private key.
    public let privateKey: P256.Signing.PrivateKey

    /// Assembles a key from its parts.
    public init(keyId: String, issuerId: String, privateKey: P256.Signing.PrivateKey) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.privateKey = privateKey
    }

    /// Issues a new key with random key id and issuer id, like App Store Connect does.
    public static func issue() -> IssuedInAppPurchaseKey {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        let keyId = String((0..<10).map { _ in alphabet.randomElement(using: &generator)! })
        return IssuedInAppPurchaseKey(
            keyId: keyId, issuerId: UUID().uuidString.lowercased(), privateKey: P256.Signing.PrivateKey())
    }

    /// The public half, which the simulator verifies API tokens with.
    public var publicKey: P256.Signing.PublicKey { privateKey.publicKey }

    /// The `.p8` contents: PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`).
    public var pemRepresentation: String { privateKey.pemRepresentation }

    /// The name App Store Connect gives the download: `SubscriptionKey_<KEYID>.p8`.
    public var fileName: String { "SubscriptionKey_\(keyId).p8" }

    /// The name of the file that records key id and issuer id next to the `.p8`.
    public static let metadataFileName = "issued-key.json"

    private struct Metadata: Codable {
        let keyId: String
        let issuerId: String
    }

    /// Errors loading a saved key.
    public enum StorageError: Error, Equatable, CustomStringConvertible {
        /// A file is missing or unreadable.
        case unreadable(file: String)
        /// A file does not contain what it should.
        case malformed(file: String)

        public var description: String {
            switch self {
            case .unreadable(let file): "cannot read \(file)"
            case .malformed(let file): "\(file) is not a valid issued-key file"
            }
        }
    }

    /// Writes `SubscriptionKey_<KEYID>.p8` (owner-readable only) and `issued-key.json` into
    /// `directory` (created if needed) and returns the `.p8` file's URL.
    @discardableResult
    public func save(to directory: URL) throws -> URL {
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        let keyURL = directory.appendingPathComponent(fileName)
        try Data((pemRepresentation + "\n").utf8).write(to: keyURL, options: .atomic)
        try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyURL.path)
        let metadata = try JSONEncoder().encode(Metadata(keyId: keyId, issuerId: issuerId))
        try metadata.write(to: directory.appendingPathComponent(Self.metadataFileName), options: .atomic)
        return keyURL
    }

    /// Loads a key written by ``save(to:)``; nil when `directory` holds no `issued-key.json`.
    public static func load(from directory: URL) throws -> IssuedInAppPurchaseKey? {
        let metadataURL = directory.appendingPathComponent(metadataFileName)
        guard FileManager.default.fileExists(atPath: metadataURL.path) else { return nil }
        guard let metadataData = FileManager.default.contents(atPath: metadataURL.path) else {
            throw StorageError.unreadable(file: metadataFileName)
        }
        guard let metadata = try? JSONDecoder().decode(Metadata.self, from: metadataData) else {
            throw StorageError.malformed(file: metadataFileName)
        }
        let keyName = "SubscriptionKey_\(metadata.keyId).p8"
        guard let pemData = FileManager.default.contents(atPath: directory.appendingPathComponent(keyName).path),
              let pem = String(data: pemData, encoding: .utf8)
        else { throw StorageError.unreadable(file: keyName) }
        guard let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) else {
            throw StorageError.malformed(file: keyName)
        }
        return IssuedInAppPurchaseKey(keyId: metadata.keyId, issuerId: metadata.issuerId, privateKey: key)
    }
}
