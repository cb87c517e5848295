import Crypto
import Foundation

/// The bearer JWT that authenticates App Store Server API requests.
///
/// Header `{"alg":"ES256","kid":<keyId>,"typ":"JWT"}`; claims `iss` (issuer id), `iat` (integer
/// seconds), `exp` = `iat` + 300, `aud` `appstoreconnect-v1`, `bid` (bundle id). Apple asks for a
/// new token per request, so callers mint one with ``make()`` every time rather than caching it.
public struct AppStoreAPIToken: AppStoreKeyIdentitySigner {
    /// The audience Apple requires for App Store Server API tokens.
    public static let audience = "appstoreconnect-v1"
    /// Token lifetime in seconds (Apple allows at most 60 minutes).
    public static let lifetime: Int64 = 300

    /// The claims of an API token.
    public struct Claims: Codable, Hashable, Sendable {
        /// The issuer id from App Store Connect (Users and Access › Integrations).
        public var iss: String
        /// Issue time, whole seconds since 1970.
        public var iat: Int64
        /// Expiry, whole seconds since 1970 (``AppStoreAPIToken/lifetime`` after `iat`).
        public var exp: Int64
        /// Always ``AppStoreAPIToken/audience``.
        public var aud: String
        /// The app's bundle identifier.
        public var bid: String

        /// Creates claims with explicit values.
        public init(iss: String, iat: Int64, exp: Int64, aud: String, bid: String) {
            self.iss = iss
            self.iat = iat
            self.exp = exp
            self.aud = aud
            self.bid = bid
        }
    }

    /// The key and identifiers tokens are minted with.
    public let identity: AppStoreKeyIdentity

    /// Creates a token minter for `identity`, whose clock supplies "now".
    public init(identity: AppStoreKeyIdentity) {
        self.identity = identity
    }

    /// The claims a token minted at `date` carries.
    public func claims(issuedAt date: Date) -> Claims {
        let iat = ES256JWT.seconds(date)
        return Claims(iss: issuerId, iat: iat, exp: iat + Self.lifetime, aud: Self.audience, bid: bundleId)
    }

    /// Mints a fresh signed token issued now.
    public func make() throws(SignatureError) -> String {
        try identity.sign(claims(issuedAt: identity.clock()))
    }

    /// Checks a token's header, signature and claims against this minter's key id, issuer, audience
    /// and bundle id, and that it has not expired at `now`; returns its claims.
    ///
    /// Used by Verdict's own tests and by the local App Store simulator to authenticate callers.
    public static func verify(
        _ token: String,
        publicKey: P256.Signing.PublicKey,
        keyId: String,
        issuerId: String,
        bundleId: String,
        now: Date
    ) throws(SignatureError) -> Claims {
        let claims = try ES256JWT.verify(
            token, as: Claims.self, keyId: keyId,
            allowedClaims: ["iss", "iat", "exp", "aud", "bid"], publicKey: publicKey
        )
        guard claims.aud == audience else { throw .audienceMismatch }
        guard claims.iss == issuerId else { throw .invalidClaim("iss") }
        guard claims.bid == bundleId else { throw .invalidClaim("bid") }
        guard claims.exp > claims.iat, claims.exp - claims.iat <= 3600 else { throw .invalidClaim("exp") }
        guard ES256JWT.seconds(now) < claims.exp else { throw .invalidClaim("exp") }
        return claims
    }
}
