import Crypto
import Foundation

/// Verifies legacy ("V1") promotional-offer signatures: rebuilds the payload from the offer's
/// fields and checks the DER ECDSA P-256 / SHA-256 signature with the public key.
public struct PromotionalOfferSignatureVerifier: Sendable {
    /// The public half of the In-App Purchase key.
    public let publicKey: P256.Signing.PublicKey
    /// The app's bundle identifier.
    public let bundleId: String

    /// Creates a verifier for one key and app.
    public init(publicKey: P256.Signing.PublicKey, bundleId: String) {
        self.publicKey = publicKey
        self.bundleId = bundleId
    }

    /// Checks a Base64 DER `signature` over the payload built from the other arguments.
    public func verify(
        signature: String,
        keyId: String,
        productId: String,
        offerId: String,
        appAccountToken: String,
        nonce: String,
        timestamp: Int64
    ) throws(SignatureError) {
        guard let der = Data(base64Encoded: signature) else {
            throw .malformed("signature is not standard Base64")
        }
        guard let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: der) else {
            throw .malformed("signature is not an ASN.1 DER ECDSA signature")
        }
        let payload = PromotionalOfferSignatureCreator.payload(
            bundleId: bundleId, keyId: keyId, productId: productId, offerId: offerId,
            appAccountToken: appAccountToken, nonce: nonce, timestamp: timestamp
        )
        guard publicKey.isValidSignature(ecdsa, for: payload) else { throw .invalidSignature }
    }

    /// Checks a ``PromotionalOfferSignature`` for the given offer, including that its nonce is a
    /// lowercase UUID as Apple requires.
    public func verify(
        _ signature: PromotionalOfferSignature,
        productId: String,
        offerId: String,
        appAccountToken: String
    ) throws(SignatureError) {
        guard ES256JWT.isLowercaseUUID(signature.nonce) else { throw .invalidClaim("nonce") }
        try verify(
            signature: signature.signature, keyId: signature.keyIdentifier, productId: productId,
            offerId: offerId, appAccountToken: appAccountToken, nonce: signature.nonce,
            timestamp: signature.timestamp
        )
    }
}
