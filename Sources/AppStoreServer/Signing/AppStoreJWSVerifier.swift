import Crypto
import Foundation

/// Verifies StoreKit JWS signatures of one kind, named by `Fields`:
/// ``PromotionalOfferV2SignatureVerifier`` and ``IntroductoryOfferEligibilitySignatureVerifier``.
///
/// Checks, in order: the header (`alg` ES256, `kid`, `typ` JWT), the ES256 signature, that no claim
/// outside ``AppStoreJWSClaims`` of this kind (such as `exp`) is present, that the claims decode
/// (which enforces the kind's required claims), `aud`, `iss`, `bid`, and a lowercase UUID `nonce`.
public struct AppStoreJWSVerifier<Fields: AppStoreJWSFields>: Sendable {
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
    public func verify(_ jws: String) throws(SignatureError) -> AppStoreJWSClaims<Fields> {
        let claims = try ES256JWT.verify(
            jws, as: AppStoreJWSClaims<Fields>.self, keyId: keyId,
            allowedClaims: AppStoreJWSClaims<Fields>.names, publicKey: publicKey
        )
        guard claims.aud == Fields.audience else { throw .audienceMismatch }
        guard claims.iss == issuerId else { throw .invalidClaim("iss") }
        guard claims.bid == bundleId else { throw .invalidClaim("bid") }
        guard ES256JWT.isLowercaseUUID(claims.nonce) else { throw .invalidClaim("nonce") }
        return claims
    }
}
