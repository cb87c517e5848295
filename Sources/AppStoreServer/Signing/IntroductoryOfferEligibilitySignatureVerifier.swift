import Crypto
import Foundation

/// Verifies introductory-offer-eligibility JWS signatures: header (`alg` ES256, `kid`, `typ` JWT),
/// ES256 signature, `aud` `introductory-offer-eligibility`, `iss`, `bid`, a present `transactionId`
/// and `allowIntroductoryOffer`, a lowercase UUID `nonce`, and no claim outside
/// ``IntroductoryOfferEligibilityClaims`` (such as `exp`).
public struct IntroductoryOfferEligibilitySignatureVerifier: Sendable {
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
    public func verify(_ jws: String) throws(SignatureError) -> IntroductoryOfferEligibilityClaims {
        let claims = try ES256JWT.verify(
            jws, as: IntroductoryOfferEligibilityClaims.self, keyId: keyId,
            allowedClaims: IntroductoryOfferEligibilityClaims.names, publicKey: publicKey
        )
        guard claims.aud == IntroductoryOfferEligibilityClaims.audience else { throw .audienceMismatch }
        guard claims.iss == issuerId else { throw .invalidClaim("iss") }
        guard claims.bid == bundleId else { throw .invalidClaim("bid") }
        guard ES256JWT.isLowercaseUUID(claims.nonce) else { throw .invalidClaim("nonce") }
        return claims
    }
}
