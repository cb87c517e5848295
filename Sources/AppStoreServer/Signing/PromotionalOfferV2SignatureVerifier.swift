import Crypto
import Foundation

/// Verifies promotional-offer JWS signatures: header (`alg` ES256, `kid`, `typ` JWT), ES256
/// signature, `aud` `promotional-offer`, `iss`, `bid`, a lowercase UUID `nonce`, and that no claim
/// outside ``PromotionalOfferV2Claims`` (such as `exp`) is present.
public struct PromotionalOfferV2SignatureVerifier: Sendable {
    /// The public half of the In-App Purchase key.
    public let publicKey: P256.Signing.PublicKey
    /// The expected `kid`.
    public let keyId: String
    /// The expected `iss`.
    public let issuerId: String
    /// The expected `bid`.
    public let bundleId: String

    /// Creates a verifier for one key and app.
    public init(publicKey: P256.Signing.PublicKey, keyId: String, issuerId: String, bundleId: String) {
        self.publicKey = publicKey
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
    }

    /// Verifies `jws` and returns its claims.
    public func verify(_ jws: String) throws(SignatureError) -> PromotionalOfferV2Claims {
        let claims = try ES256JWT.verify(
            jws, as: PromotionalOfferV2Claims.self, keyId: keyId,
            allowedClaims: PromotionalOfferV2Claims.names, publicKey: publicKey
        )
        guard claims.aud == PromotionalOfferV2Claims.audience else { throw .audienceMismatch }
        guard claims.iss == issuerId else { throw .invalidClaim("iss") }
        guard claims.bid == bundleId else { throw .invalidClaim("bid") }
        guard ES256JWT.isLowercaseUUID(claims.nonce) else { throw .invalidClaim("nonce") }
        return claims
    }
}
