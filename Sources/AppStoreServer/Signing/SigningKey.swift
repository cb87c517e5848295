import Crypto
import Foundation

/// Loads the App Store Connect In-App Purchase key (the `.p8` file Apple lets you download once).
///
/// The same key signs App Store Server API tokens, V1 promotional-offer signatures and the JWS
/// offer / eligibility signatures. Apple ships it as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`);
/// SEC1 PEM (`-----BEGIN EC PRIVATE KEY-----`) is accepted too, since keys converted with OpenSSL
/// often end up in that form. Only P-256 keys load.
public enum SigningKey {
    /// Parses a PEM `.p8` key.
    ///
    /// Surrounding whitespace and Windows line endings are tolerated.
    public static func load(pem: String) throws(SigningKeyError) -> P256.Signing.PrivateKey {
        let text = pem.replacingOccurrences(of: "\r\n", with: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard let label = pemLabel(of: text) else { throw .notPEM }
        guard label == "PRIVATE KEY" || label == "EC PRIVATE KEY" else {
            throw .unsupportedPEMType(label)
        }
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: text)
        } catch {
            // The underlying error is deliberately dropped: nothing about the key leaves here.
            throw .invalidKey
        }
    }

    /// Reads and parses a PEM `.p8` key file.
    public static func load(contentsOf url: URL) throws(SigningKeyError) -> P256.Signing.PrivateKey {
        guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else {
            throw .unreadableFile(path: url.path)
        }
        return try load(pem: text)
    }

    /// The label of the first line `-----BEGIN <label>-----` if the text also has the matching END line.
    private static func pemLabel(of text: String) -> String? {
        let prefix = "-----BEGIN ", suffix = "-----"
        guard let firstLine = text.split(separator: "\n", maxSplits: 1).first,
              firstLine.hasPrefix(prefix), firstLine.hasSuffix(suffix),
              firstLine.count > prefix.count + suffix.count
        else { return nil }
        let label = String(firstLine.dropFirst(prefix.count).dropLast(suffix.count))
        guard text.hasSuffix("-----END \(label)-----") else { return nil }
        return label
    }
}
