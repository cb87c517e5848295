import Foundation

/// Creates StoreKit signed JWSs (ES256, In-App Purchase key) of one kind, named by `Fields`:
/// ``PromotionalOfferV2SignatureCreator`` and ``IntroductoryOfferEligibilitySignatureCreator``.
///
/// Header `{"alg":"ES256","kid":…,"typ":"JWT"}`; claims ``AppStoreJWSClaims`` with the identity's
/// `iss` and `bid`, an integer `iat` from the clock, a fresh lowercase `nonce` and no `exp`. Each JWS
/// is verified with the public key (``AppStoreJWSVerifier``) before it is returned.
public struct AppStoreJWSCreator<Fields: AppStoreJWSFields>: AppStoreKeyIdentitySigner {
    /// The key and identifiers this creator signs with.
    public let identity: AppStoreKeyIdentity

    /// Creates a signer for `identity`.
    public init(identity: AppStoreKeyIdentity) {
        self.identity = identity
    }

    /// Signs `fields` under this creator's identity, checks the result, and returns the compact JWS.
    ///
    /// - Parameter nonce: the nonce; a fresh random UUID when nil.
    public func createSignature(for fields: Fields, nonce: UUID? = nil) throws(SignatureError) -> String {
        let claims = AppStoreJWSClaims(
            fields: fields, iss: identity.issuerId, bid: identity.bundleId,
            iat: identity.issuedAt(), nonce: (nonce ?? UUID()).uuidString.lowercased()
        )
        let jws = try identity.sign(claims)
        let verifier = AppStoreJWSVerifier<Fields>(
            publicKey: identity.publicKey, keyId: identity.keyId,
            issuerId: identity.issuerId, bundleId: identity.bundleId
        )
        guard try verifier.verify(jws) == claims else { throw .invalidClaim("payload") }
        return jws
    }
}
