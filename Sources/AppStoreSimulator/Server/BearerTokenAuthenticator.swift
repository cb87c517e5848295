import AppStoreServer
import Crypto
import Foundation

/// Checks the `Authorization: Bearer <JWT>` of an App Store Server API request the way Apple does:
/// ES256 signature by the issued In-App Purchase key, header `kid` = key id, `iss` = issuer id,
/// `aud` = `appstoreconnect-v1`, `bid` = bundle id, `exp` present, `exp − iat` at most 60 minutes
/// and not expired. Apple answers every failure with a bare 401, so only the reason for logs is returned.
struct BearerTokenAuthenticator: Sendable {
    let key: IssuedInAppPurchaseKey
    let bundleId: String
    /// Tolerated clock skew for `iat` in the future.
    var allowedSkew: TimeInterval = 60

    /// Why a token was refused.
    enum Rejection: String, Error, Equatable {
        case missingHeader, malformedToken, wrongAlgorithm, wrongKeyId, badSignature, wrongIssuer,
             wrongAudience, wrongBundleId, missingExpiration, lifetimeTooLong, expired, issuedInFuture
    }

    /// Nil when the `Authorization` header value authorizes the request at `now`.
    func check(_ authorization: String?, now: Date) -> Rejection? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return .missingHeader }
        let token = authorization.dropFirst("Bearer ".count).trimmingCharacters(in: .whitespaces)
        guard let jws = CompactJWS(token),
              let header = JSONValue.parse(jws.header)?.objectValue,
              let claims = JSONValue.parse(jws.payload)?.objectValue
        else { return .malformedToken }
        guard header["alg"]?.stringValue == "ES256" else { return .wrongAlgorithm }
        guard header["kid"]?.stringValue == key.keyId else { return .wrongKeyId }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature),
              key.publicKey.isValidSignature(signature, for: jws.signingInput)
        else { return .badSignature }
        guard claims["iss"]?.stringValue == key.issuerId else { return .wrongIssuer }
        let audiences: [String] = switch claims["aud"] {
        case .string(let audience)?: [audience]
        case .array(let values)?: values.compactMap(\.stringValue)
        default: []
        }
        guard audiences.contains("appstoreconnect-v1") else { return .wrongAudience }
        guard claims["bid"]?.stringValue == bundleId else { return .wrongBundleId }
        guard let expiration = Self.seconds(claims["exp"]) else { return .missingExpiration }
        let issuedAt = Self.seconds(claims["iat"])
        let nowSeconds = now.timeIntervalSince1970
        if let issuedAt, issuedAt > nowSeconds + allowedSkew { return .issuedInFuture }
        guard expiration - (issuedAt ?? nowSeconds) <= 3600 else { return .lifetimeTooLong }
        guard expiration > nowSeconds else { return .expired }
        return nil
    }

    private static func seconds(_ value: JSONValue?) -> TimeInterval? {
        switch value {
        case .integer(let seconds)?: TimeInterval(seconds)
        case .number(let seconds)?: seconds
        default: nil
        }
    }
}
