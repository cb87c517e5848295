import Crypto
import Foundation

/// Creates legacy ("V1") promotional-offer signatures (StoreKit's `Product.SubscriptionOffer.Signature`).
///
/// The signed payload is the UTF-8 of
/// `bundleId ⁣ keyId ⁣ productId ⁣ offerId ⁣ lowercase(appAccountToken) ⁣ lowercase(nonce) ⁣ timestamp`
/// joined by U+2063 INVISIBLE SEPARATOR; the signature is ECDSA P-256 over SHA-256 of it, DER,
/// standard Base64. Every signature is checked with the public key before it is returned.
public struct PromotionalOfferSignatureCreator: Sendable {
    /// U+2063 INVISIBLE SEPARATOR, UTF-8 `E2 81 A3`.
    public static let separator = "\u{2063}"

    private let signingKey: P256.Signing.PrivateKey
    /// The App Store Connect key identifier of the signing key.
    public let keyId: String
    /// The app's bundle identifier.
    public let bundleId: String
    private let clock: @Sendable () -> Date

    /// Creates a signer for one key and app; `clock` supplies the timestamp (injectable for tests).
    public init(
        privateKey: P256.Signing.PrivateKey,
        keyId: String,
        bundleId: String,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.signingKey = privateKey
        self.keyId = keyId
        self.bundleId = bundleId
        self.clock = clock
    }

    /// The exact bytes a V1 signature covers.
    ///
    /// `appAccountToken` may be empty (an empty field between separators); it and `nonce` are
    /// lowercased, the other fields are used as given.
    public static func payload(
        bundleId: String,
        keyId: String,
        productId: String,
        offerId: String,
        appAccountToken: String,
        nonce: String,
        timestamp: Int64
    ) -> Data {
        let fields = [
            bundleId, keyId, productId, offerId,
            appAccountToken.lowercased(), nonce.lowercased(), String(timestamp),
        ]
        return Data(fields.joined(separator: separator).utf8)
    }

    /// Signs an offer for `productId`.
    ///
    /// - Parameters:
    ///   - appAccountToken: the app account token the purchase will carry, or `""`.
    ///   - nonce: the nonce to use; a fresh random UUID when nil (Apple rejects reused nonces).
    ///   - timestamp: milliseconds since 1970; the clock's "now" when nil.
    public func createSignature(
        productId: String,
        offerId: String,
        appAccountToken: String = "",
        nonce: UUID? = nil,
        timestamp: Int64? = nil
    ) throws(SignatureError) -> PromotionalOfferSignature {
        let nonceText = (nonce ?? UUID()).uuidString.lowercased()
        let timestamp = timestamp ?? clock().appStoreMilliseconds
        let payload = Self.payload(
            bundleId: bundleId, keyId: keyId, productId: productId, offerId: offerId,
            appAccountToken: appAccountToken, nonce: nonceText, timestamp: timestamp
        )
        let der: Data
        do {
            der = try signingKey.signature(for: payload).derRepresentation
        } catch {
            throw .signingFailed
        }
        let result = PromotionalOfferSignature(
            keyIdentifier: keyId, nonce: nonceText, timestamp: timestamp,
            signature: der.base64EncodedString()
        )
        try PromotionalOfferSignatureVerifier(publicKey: signingKey.publicKey, bundleId: bundleId)
            .verify(result, productId: productId, offerId: offerId, appAccountToken: appAccountToken)
        return result
    }
}
