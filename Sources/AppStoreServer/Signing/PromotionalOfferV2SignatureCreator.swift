import Crypto
import Foundation

/// Creates promotional-offer JWS signatures for `Product.PurchaseOption.promotionalOffer(_:compactJWS:)`
/// (reference §4.2).
///
/// Header `{"alg":"ES256","kid":…,"typ":"JWT"}`; claims ``PromotionalOfferV2Claims`` with an integer
/// `iat`, a fresh lowercase `nonce` and no `exp`. Each JWS is verified with the public key before it
/// is returned.
public struct PromotionalOfferV2SignatureCreator: Sendable {
    private let signingKey: P256.Signing.PrivateKey
    /// The App Store Connect key identifier, sent as `kid`.
    public let keyId: String
    /// The App Store Connect issuer id, sent as `iss`.
    public let issuerId: String
    /// The app's bundle identifier, sent as `bid`.
    public let bundleId: String
    private let clock: @Sendable () -> Date

    /// Creates a signer for one key and app; `clock` supplies `iat` (injectable for tests).
    public init(
        privateKey: P256.Signing.PrivateKey,
        keyId: String,
        issuerId: String,
        bundleId: String,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.signingKey = privateKey
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.clock = clock
    }

    /// Signs an offer.
    ///
    /// - Parameters:
    ///   - transactionId: any transaction id of the customer (Apple recommends sending one); nil omits it.
    ///   - nonce: the nonce; a fresh random UUID when nil.
    public func createSignature(
        productId: String,
        offerIdentifier: String,
        transactionId: String? = nil,
        nonce: UUID? = nil
    ) throws(SignatureError) -> String {
        let claims = PromotionalOfferV2Claims(
            productId: productId, offerIdentifier: offerIdentifier, transactionId: transactionId,
            iss: issuerId, bid: bundleId, iat: ES256JWT.seconds(clock()),
            nonce: (nonce ?? UUID()).uuidString.lowercased()
        )
        let jws = try ES256JWT.sign(claims: claims, keyId: keyId, key: signingKey)
        let verifier = PromotionalOfferV2SignatureVerifier(
            publicKey: signingKey.publicKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId
        )
        guard try verifier.verify(jws) == claims else { throw .invalidClaim("payload") }
        return jws
    }
}
