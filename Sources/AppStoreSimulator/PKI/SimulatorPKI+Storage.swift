import Crypto
import Foundation
import SwiftASN1
import X509

extension SimulatorPKI {
    /// File names used by ``save(to:)`` and ``load(from:)``.
    public enum FileName {
        /// The root certificate, PEM.
        public static let rootCertificate = "root.pem"
        /// The root certificate, DER (convenient for `--root` / `VERDICT_ROOT_CERTIFICATES`).
        public static let rootCertificateDER = "root.der"
        /// The intermediate certificate, PEM.
        public static let intermediateCertificate = "intermediate.pem"
        /// The leaf certificate, PEM.
        public static let leafCertificate = "leaf.pem"
        /// The root CA's private key, PKCS#8 PEM.
        public static let rootKey = "root-key.pem"
        /// The intermediate CA's private key, PKCS#8 PEM.
        public static let intermediateKey = "intermediate-key.pem"
        /// The leaf's private key, PKCS#8 PEM.
        public static let leafKey = "leaf-key.pem"
    }

    /// Errors loading a saved hierarchy.
    public enum StorageError: Error, Equatable, CustomStringConvertible {
        /// A file is missing or unreadable.
        case unreadable(file: String)
        /// A file does not contain what its name says.
        case malformed(file: String)
        /// The files do not form one hierarchy (a key does not match its certificate, or a
        /// certificate was not issued by the next one up).
        case inconsistent(String)

        public var description: String {
            switch self {
            case .unreadable(let file): "cannot read \(file)"
            case .malformed(let file): "\(file) is not a valid PEM certificate or PKCS#8 P-256 key"
            case .inconsistent(let reason): "the saved PKI is inconsistent: \(reason)"
            }
        }
    }

    /// Writes the hierarchy into `directory` (created if needed): certificates as PEM (plus the root
    /// as DER), private keys as PKCS#8 PEM readable only by the owner.
    public func save(to directory: URL) throws {
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        func write(_ text: String, _ name: String, secret: Bool = false) throws {
            let url = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: url, options: .atomic)
            if secret {
                try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
            }
        }
        try write(rootCertificate.serializeAsPEM().pemString + "\n", FileName.rootCertificate)
        try rootCertificateDER.write(to: directory.appendingPathComponent(FileName.rootCertificateDER), options: .atomic)
        try write(intermediateCertificate.serializeAsPEM().pemString + "\n", FileName.intermediateCertificate)
        try write(leafCertificate.serializeAsPEM().pemString + "\n", FileName.leafCertificate)
        try write(rootKey.pemRepresentation + "\n", FileName.rootKey, secret: true)
        try write(intermediateKey.pemRepresentation + "\n", FileName.intermediateKey, secret: true)
        try write(leafKey.pemRepresentation + "\n", FileName.leafKey, secret: true)
    }

    /// Reads a hierarchy written by ``save(to:)`` and checks that it hangs together.
    public static func load(from directory: URL) throws -> SimulatorPKI {
        func text(_ name: String) throws -> String {
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path),
                  let text = String(data: data, encoding: .utf8)
            else { throw StorageError.unreadable(file: name) }
            return text
        }
        func certificate(_ name: String) throws -> Certificate {
            do { return try Certificate(pemEncoded: try text(name)) } catch let error as StorageError {
                throw error
            } catch { throw StorageError.malformed(file: name) }
        }
        func key(_ name: String) throws -> P256.Signing.PrivateKey {
            do { return try P256.Signing.PrivateKey(pemRepresentation: try text(name)) } catch let error as StorageError {
                throw error
            } catch { throw StorageError.malformed(file: name) }
        }
        let pki = try SimulatorPKI(
            rootCertificate: certificate(FileName.rootCertificate),
            intermediateCertificate: certificate(FileName.intermediateCertificate),
            leafCertificate: certificate(FileName.leafCertificate),
            rootKey: key(FileName.rootKey),
            intermediateKey: key(FileName.intermediateKey),
            leafKey: key(FileName.leafKey)
        )
        try pki.checkConsistency()
        return pki
    }

    private func checkConsistency() throws {
        let pairs: [(Certificate, P256.Signing.PrivateKey, String)] = [
            (rootCertificate, rootKey, "root"),
            (intermediateCertificate, intermediateKey, "intermediate"),
            (leafCertificate, leafKey, "leaf"),
        ]
        for (certificate, key, name) in pairs where certificate.publicKey != Certificate.PublicKey(key.publicKey) {
            throw StorageError.inconsistent("the \(name) key does not match the \(name) certificate")
        }
        guard rootCertificate.publicKey.isValidSignature(intermediateCertificate.signature, for: intermediateCertificate)
        else { throw StorageError.inconsistent("the intermediate was not issued by the root") }
        guard intermediateCertificate.publicKey.isValidSignature(leafCertificate.signature, for: leafCertificate)
        else { throw StorageError.inconsistent("the leaf was not issued by the intermediate") }
    }
}
