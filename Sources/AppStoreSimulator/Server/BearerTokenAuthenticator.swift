import AppStoreServer
import Crypto
import Foundation

/// Checks the `Authorization: Bearer <JWT>` of an App Store Server API request the way Apple does:
/// `bid` names one of the served apps, ES256 signature by that app's issued In-App Purchase key,
/// header `kid` = its key id, `iss` = its issuer id, `aud` = `appstoreconnect-v1`, `exp` present,
/// `exp − iat` at most 60 minutes and not expired. A key is only good for the app it was issued
/// for: a token signed with app A's key naming app B is refused. Apple answers every failure with
/// a bare 401, so only the reason for logs is returned.
struct BearerTokenAuthenticator: Sendable {
    /// The issued key of each served app, by bundle id.
    let keys: [String: IssuedInAppPurchaseKey]
    /// Tolerated clock skew for `iat` in the future.
    var allowedSkew: TimeInterval = 60

    /// Why a token was refused.
    enum Rejection: String, Error, Equatable {
        case missingHeader, malformedToken, wrongAlgorithm, wrongKeyId, badSignature, wrongIssuer,
             wrongAudience, wrongBundleId, missingExpiration, lifetimeTooLong, expired, issuedInFuture
    }

    /// The bundle id of the app the `Authorization` header value authorizes a request for at
    /// `now`, or why it does not.
    func authenticate(_ authorization: String?, now: Date) -> Result<String, Rejection> {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return .failure(.missingHeader) }
        let token = authorization.dropFirst("Bearer ".count).trimmingCharacters(in: .whitespaces)
        guard let jws = CompactJWS(token),
              let header = JSONValue.parse(jws.header)?.objectValue,
              let claims = JSONValue.parse(jws.payload)?.objectValue
        else { return .failure(.malformedToken) }
        guard header["alg"]?.stringValue == "ES256" else { return .failure(.wrongAlgorithm) }
        guard let bundleId = claims["bid"]?.stringValue, let key = keys[bundleId] else {
            return .failure(.wrongBundleId)
        }
        guard header["kid"]?.stringValue == key.keyId else { return .failure(.wrongKeyId) }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature),
              key.publicKey.isValidSignature(signature, for: jws.signingInput)
        else { return .failure(.badSignature) }
        guard claims["iss"]?.stringValue == key.issuerId else { return .failure(.wrongIssuer) }
        let audiences: [String] = switch claims["aud"] {
        case .string(let audience)?: [audience]
        case .array(let values)?: values.compactMap(\.stringValue)
        default: []
        }
        guard audiences.contains("appstoreconnect-v1") else { return .failure(.wrongAudience) }
        guard let expiration = Self.seconds(claims["exp"]) else { return .failure(.missingExpiration) }
        let issuedAt = Self.seconds(claims["iat"])
        let nowSeconds = now.timeIntervalSince1970
        if let issuedAt, issuedAt > nowSeconds + allowedSkew { return .failure(.issuedInFuture) }
        guard expiration - (issuedAt ?? nowSeconds) <= 3600 else { return .failure(.lifetimeTooLong) }
        guard expiration > nowSeconds else { return .failure(.expired) }
        return .success(bundleId)
    }

    private static func seconds(_ value: JSONValue?) -> TimeInterval? {
        switch value {
        case .integer(let seconds)?: TimeInterval(seconds)
        case .number(let seconds)?: seconds
        default: nil
        }
    }
}
