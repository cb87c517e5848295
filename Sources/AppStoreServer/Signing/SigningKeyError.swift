/// Why an In-App Purchase signing key could not be loaded.
///
/// Descriptions name the problem and, at most, the file path or the PEM label; they never include
/// any bytes of the key, so they are safe to log.
public enum SigningKeyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The key file could not be read (missing, unreadable, or not UTF-8 text).
    case unreadableFile(path: String)
    /// The text is not a PEM document (no `-----BEGIN …-----` / `-----END …-----` block).
    case notPEM
    /// The PEM block is of a kind other than `PRIVATE KEY` (PKCS#8) or `EC PRIVATE KEY` (SEC1).
    case unsupportedPEMType(String)
    /// The PEM block decoded, but its contents are not a P-256 private key.
    case invalidKey

    public var description: String {
        switch self {
        case .unreadableFile(let path):
            "signing key file could not be read: \(path)"
        case .notPEM:
            "signing key is not a PEM document"
        case .unsupportedPEMType(let label):
            "signing key PEM type \"\(label)\" is not supported (expected PRIVATE KEY or EC PRIVATE KEY)"
        case .invalidKey:
            "signing key is not a valid P-256 private key"
        }
    }
}
