/// Why Verdict could not create, or would not accept, a signature it issues (API token, V1
/// promotional-offer signature, offer / eligibility JWS).
///
/// Descriptions name the failing check (and, for claims, the claim name) but never echo key
/// material or signature bytes.
public enum SignatureError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The signing operation itself failed (a CryptoKit error or unencodable claims).
    case signingFailed
    /// The signature is not in the expected encoding (not compact JWS / not Base64 / not DER).
    case malformed(String)
    /// The JWS header's `alg` is not `ES256` (the value found, or nil when absent).
    case unsupportedAlgorithm(String?)
    /// The JWS header's `kid` is not the expected key identifier.
    case keyIdMismatch
    /// The JWS header's `typ` is not `JWT`.
    case typeMismatch
    /// The `aud` claim is not the audience of this kind of signature.
    case audienceMismatch
    /// A claim is missing, mistyped or has a value other than the expected one.
    case invalidClaim(String)
    /// The payload carries a claim this kind of signature must not have (for example `exp`).
    case unexpectedClaim(String)
    /// The signature does not verify with the public key.
    case invalidSignature

    /// A stable identifier for logs and API responses.
    public var code: String {
        switch self {
        case .signingFailed: "SIGNING_FAILED"
        case .malformed: "MALFORMED_SIGNATURE"
        case .unsupportedAlgorithm: "UNSUPPORTED_ALGORITHM"
        case .keyIdMismatch: "KEY_ID_MISMATCH"
        case .typeMismatch: "TYPE_MISMATCH"
        case .audienceMismatch: "AUDIENCE_MISMATCH"
        case .invalidClaim: "INVALID_CLAIM"
        case .unexpectedClaim: "UNEXPECTED_CLAIM"
        case .invalidSignature: "INVALID_SIGNATURE"
        }
    }

    public var description: String {
        switch self {
        case .signingFailed: "signing failed"
        case .malformed(let what): "malformed signature: \(what)"
        case .unsupportedAlgorithm(let alg): "unsupported JWS algorithm \(alg.map { "\"\($0)\"" } ?? "(none)")"
        case .keyIdMismatch: "JWS kid does not match the expected key identifier"
        case .typeMismatch: "JWS typ is not JWT"
        case .audienceMismatch: "JWS aud does not match"
        case .invalidClaim(let name): "claim \"\(name)\" is missing or has the wrong value"
        case .unexpectedClaim(let name): "unexpected claim \"\(name)\""
        case .invalidSignature: "signature does not verify"
        }
    }
}
