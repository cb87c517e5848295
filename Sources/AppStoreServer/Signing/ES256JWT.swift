import Crypto
import Foundation

/// The protected header of every JWT Verdict signs with the In-App Purchase key:
/// `{"alg":"ES256","kid":<key id>,"typ":"JWT"}`.
public struct ES256JWTHeader: Codable, Hashable, Sendable {
    /// Always `ES256` for what Verdict issues.
    public var alg: String
    /// The App Store Connect key identifier.
    public var kid: String
    /// Always `JWT`.
    public var typ: String

    /// A header for `keyId`.
    public init(keyId: String) {
        self.alg = "ES256"
        self.kid = keyId
        self.typ = "JWT"
    }
}

/// Shared signing and checking of the ES256 JWTs Verdict issues (API token, offer JWS).
///
/// Header and claims are encoded with a sorted-keys `JSONEncoder`, so `nil` optionals are omitted
/// and the output is deterministic apart from the signature.
enum ES256JWT {
    /// Encodes `header` and `claims` and signs them.
    static func sign(
        claims: some Encodable, keyId: String, key: P256.Signing.PrivateKey
    ) throws(SignatureError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            let header = try encoder.encode(ES256JWTHeader(keyId: keyId))
            let payload = try encoder.encode(claims)
            return try CompactJWS.signES256(header: header, payload: payload, key: key)
        } catch {
            throw .signingFailed
        }
    }

    /// Checks the header (`alg` ES256, `kid`, `typ` JWT), that the payload's claim names are all in
    /// `allowedClaims`, and the ES256 signature; returns the decoded claims.
    ///
    /// Claim values (audience, issuer, …) are the caller's to check on the returned value.
    static func verify<Claims: Decodable>(
        _ token: String,
        as type: Claims.Type,
        keyId: String,
        allowedClaims: Set<String>,
        publicKey: P256.Signing.PublicKey
    ) throws(SignatureError) -> Claims {
        guard let jws = CompactJWS(token) else { throw .malformed("not a compact JWS") }
        guard let header = try? JSONSerialization.jsonObject(with: jws.header) as? [String: Any] else {
            throw .malformed("header is not a JSON object")
        }
        let alg = header["alg"] as? String
        guard alg == "ES256" else { throw .unsupportedAlgorithm(alg) }
        guard header["kid"] as? String == keyId else { throw .keyIdMismatch }
        guard header["typ"] as? String == "JWT" else { throw .typeMismatch }

        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature),
              publicKey.isValidSignature(signature, for: jws.signingInput)
        else { throw .invalidSignature }

        guard let object = try? JSONSerialization.jsonObject(with: jws.payload) as? [String: Any] else {
            throw .malformed("payload is not a JSON object")
        }
        if let extra = object.keys.sorted().first(where: { !allowedClaims.contains($0) }) {
            throw .unexpectedClaim(extra)
        }
        // Foundation reports a fractional number for an integer field without naming the field.
        if let iat = object["iat"], !isWholeNumber(iat) { throw .invalidClaim("iat") }
        do {
            return try JSONDecoder().decode(Claims.self, from: jws.payload)
        } catch let DecodingError.keyNotFound(key, _) {
            throw .invalidClaim(key.stringValue)
        } catch let DecodingError.typeMismatch(_, context) {
            throw .invalidClaim(context.codingPath.first?.stringValue ?? "payload")
        } catch let DecodingError.valueNotFound(_, context) {
            throw .invalidClaim(context.codingPath.first?.stringValue ?? "payload")
        } catch let DecodingError.dataCorrupted(context) where !context.codingPath.isEmpty {
            throw .invalidClaim(context.codingPath[0].stringValue)
        } catch {
            throw .malformed("payload does not decode")
        }
    }

    /// Whether a `JSONSerialization` value is a number without a fractional part (not a Bool).
    private static func isWholeNumber(_ value: Any) -> Bool {
        guard let number = value as? NSNumber, !(value is Bool) else { return false }
        let double = number.doubleValue
        return double.isFinite && double == double.rounded(.towardZero)
    }

    /// Whether `nonce` is a UUID written in lowercase, as Apple requires for offer signatures.
    static func isLowercaseUUID(_ nonce: String) -> Bool {
        UUID(uuidString: nonce) != nil && nonce == nonce.lowercased()
    }

    /// Whole seconds since 1970 (truncated), the integer `iat` Verdict writes.
    static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }
}
