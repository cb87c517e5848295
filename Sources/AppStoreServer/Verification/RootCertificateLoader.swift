import Foundation
import SwiftASN1
import X509

/// Reads trusted root certificates from file bytes in either DER or PEM form.
///
/// Used for the CLI's `--root` and the service's `VERDICT_ROOT_CERTIFICATES`: a `.cer`/`.der` file
/// (one DER certificate, as Apple publishes its roots) or a `.pem` file with one or more
/// `-----BEGIN CERTIFICATE-----` blocks. Every certificate is parsed, so a broken file fails at
/// startup rather than at the first notification.
public enum RootCertificateLoader {
    /// Why a root certificate file was rejected.
    public enum LoadError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The file is empty.
        case empty
        /// The bytes are neither a DER certificate nor PEM with at least one certificate.
        case notACertificate
        /// The PEM block number `index` (0-based) is not a valid certificate.
        case invalidPEMCertificate(index: Int)

        public var description: String {
            switch self {
            case .empty: "the root certificate file is empty"
            case .notACertificate: "the file is neither a DER X.509 certificate nor PEM containing certificates"
            case .invalidPEMCertificate(let index): "PEM certificate #\(index + 1) is not a valid X.509 certificate"
            }
        }
    }

    /// The DER bytes of every certificate in `bytes` (one for DER input, one per block for PEM).
    public static func derCertificates(from bytes: Data) throws(LoadError) -> [Data] {
        guard !bytes.isEmpty else { throw .empty }
        if (try? Certificate(derEncoded: Array(bytes))) != nil {
            return [bytes]
        }
        guard let text = String(data: bytes, encoding: .utf8), text.contains("-----BEGIN") else {
            throw .notACertificate
        }
        let documents: [PEMDocument]
        do {
            documents = try PEMDocument.parseMultiple(pemString: text)
        } catch {
            throw .notACertificate
        }
        var certificates: [Data] = []
        for document in documents where document.discriminator == "CERTIFICATE" {
            guard (try? Certificate(derEncoded: document.derBytes)) != nil else {
                throw .invalidPEMCertificate(index: certificates.count)
            }
            certificates.append(Data(document.derBytes))
        }
        guard !certificates.isEmpty else { throw .notACertificate }
        return certificates
    }

    /// Reads the file at `url` and returns its certificates (see ``derCertificates(from:)``).
    public static func derCertificates(contentsOf url: URL) throws -> [Data] {
        try derCertificates(from: Data(contentsOf: url))
    }
}
