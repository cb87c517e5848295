/// Why a signed payload from Apple (or the simulator) was rejected.
///
/// Every case has a stable machine-readable ``code`` (safe to log, return in API bodies and match
/// in clients) and a human ``message``. Messages never contain payload bytes, keys or tokens.
/// Only ``retryable(_:)`` means "try again later"; every other case is final for that payload.
public enum VerificationError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// Not a compact JWS: not three segments, a segment is not Base64URL, or the header is not a
    /// JSON object of the expected shape.
    case invalidJWS(String)
    /// The header's `alg` is missing or anything but `ES256` (`none`, `HS256`, `RS256`, …).
    case unsupportedAlgorithm(String?)
    /// The header's `x5c` is missing or does not hold exactly three certificates.
    case invalidChainLength(Int?)
    /// An `x5c` entry is not standard Base64 or not a DER X.509 certificate.
    case invalidCertificate(String)
    /// The certificates do not form an App Store chain under a configured root at the validation
    /// time (wrong root, missing Apple marker extension, expired, revoked, leaf key not P-256).
    case invalidChain(String)
    /// The ES256 signature is malformed (not 64 bytes `r‖s`) or does not verify with the leaf key.
    case invalidSignature(String)
    /// The (signed) payload is not JSON of the expected model (wrong types, not an object).
    case invalidPayload(String)
    /// The payload names another app: bundle id or App Apple ID differ from the configured ones
    /// (or the notification names no app at all).
    case invalidAppIdentifier(String)
    /// The payload's environment is not one this verifier accepts, or a nested payload's
    /// environment differs from its notification's.
    case invalidEnvironment(String)
    /// The payload could not be judged now (the OCSP responder was unreachable or answered with
    /// an error status); the sender should retry later.
    case retryable(String)

    /// The stable code: `INVALID_JWS`, `UNSUPPORTED_ALGORITHM`, `INVALID_CHAIN_LENGTH`,
    /// `INVALID_CERTIFICATE`, `INVALID_CHAIN`, `INVALID_SIGNATURE`, `INVALID_PAYLOAD`,
    /// `INVALID_APP_IDENTIFIER`, `INVALID_ENVIRONMENT` or `RETRYABLE`.
    public var code: String {
        switch self {
        case .invalidJWS: "INVALID_JWS"
        case .unsupportedAlgorithm: "UNSUPPORTED_ALGORITHM"
        case .invalidChainLength: "INVALID_CHAIN_LENGTH"
        case .invalidCertificate: "INVALID_CERTIFICATE"
        case .invalidChain: "INVALID_CHAIN"
        case .invalidSignature: "INVALID_SIGNATURE"
        case .invalidPayload: "INVALID_PAYLOAD"
        case .invalidAppIdentifier: "INVALID_APP_IDENTIFIER"
        case .invalidEnvironment: "INVALID_ENVIRONMENT"
        case .retryable: "RETRYABLE"
        }
    }

    /// A one-line human explanation.
    public var message: String {
        switch self {
        case .invalidJWS(let detail):
            "The signed payload is not a well-formed compact JWS: \(detail)."
        case .unsupportedAlgorithm(let alg):
            if let alg {
                "The JWS algorithm \"\(alg.prefix(32))\" is not accepted; only ES256 is."
            } else {
                "The JWS header names no algorithm; only ES256 is accepted."
            }
        case .invalidChainLength(let count):
            if let count {
                "The JWS x5c header holds \(count) certificates; App Store chains have exactly 3."
            } else {
                "The JWS header has no x5c certificate chain."
            }
        case .invalidCertificate(let detail):
            "A certificate in the JWS x5c header is unreadable: \(detail)."
        case .invalidChain(let detail):
            "The certificate chain is not a valid App Store chain under the trusted roots: \(detail)."
        case .invalidSignature(let detail):
            "The JWS signature is invalid: \(detail)."
        case .invalidPayload(let detail):
            "The signed payload is not the expected JSON: \(detail)."
        case .invalidAppIdentifier(let detail):
            "The payload belongs to another app: \(detail)."
        case .invalidEnvironment(let detail):
            "The payload's environment is not accepted: \(detail)."
        case .retryable(let detail):
            "The payload could not be verified now and should be retried: \(detail)."
        }
    }

    /// Whether the failure is transient (only ``retryable(_:)``).
    public var isRetryable: Bool {
        if case .retryable = self { return true }
        return false
    }

    public var description: String { "\(code): \(message)" }

    /// A name taken from the payload, quoted and cut to 64 characters for a message.
    static func quoted(_ name: String) -> String {
        "\"\(name.count > 64 ? name.prefix(64) + "…" : Substring(name))\""
    }
}
