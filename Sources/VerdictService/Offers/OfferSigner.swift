import AppStoreServer
import Foundation
import VerdictRequests
import VerdictStorage

/// Signs promotional offers with the In-App Purchase key, which never leaves the service: the
/// V1 signature (`Product.SubscriptionOffer.Signature`) and the JWS
/// (`promotionalOffer(_:compactJWS:)`).
///
/// Every nonce is reserved in the database for 24 hours before it is signed (Apple caches nonces
/// that long), so no nonce is ever issued twice — across restarts and processes. Every signature
/// is verified with the key's public half before it is returned.
public struct OfferSigner: Sendable {
    /// Which signatures to return.
    public typealias Format = OfferSignatureFormat

    /// The signatures for one offer.
    public struct SignedOffer: Sendable, Encodable {
        /// V1: key id, lowercase nonce, timestamp (ms) and Base64 DER signature.
        public var signature: PromotionalOfferSignature?
        /// The compact JWS.
        public var jws: String?
    }

    /// How long a nonce stays reserved (and Apple accepts the signature): 24 hours.
    public static let nonceLifetimeMilliseconds: Int64 = 86_400_000

    let v1: PromotionalOfferSignatureCreator
    let jws: PromotionalOfferV2SignatureCreator
    let repository: any OfferNonceStore
    let now: @Sendable () -> Date

    /// A signer for the configured In-App Purchase key; nil when no key is configured.
    public init?(configuration: AppConfiguration, repository: any OfferNonceStore, now: @escaping @Sendable () -> Date) {
        guard let credentials = configuration.appStoreCredentials else { return nil }
        let key = credentials.privateKey
        self.v1 = PromotionalOfferSignatureCreator(privateKey: key, keyId: credentials.keyId, bundleId: configuration.bundleId)
        self.jws = PromotionalOfferV2SignatureCreator(
            privateKey: key, keyId: credentials.keyId, issuerId: credentials.issuerId,
            bundleId: configuration.bundleId, clock: now
        )
        self.repository = repository
        self.now = now
    }

    /// Signs `offerId` for `productId`. V1 signs for `appAccountToken` (empty when nil, as Apple
    /// allows); the JWS names `transactionId` when given (Apple recommends it).
    public func sign(
        productId: String, offerId: String, appAccountToken: UUID?, transactionId: String?, format: Format
    ) async throws -> SignedOffer {
        var signed = SignedOffer()
        if format != .jws {
            let token = appAccountToken?.uuidString.lowercased() ?? ""
            let timestamp = now().appStoreMilliseconds
            // The creator verifies the signature with the key's public half before returning it.
            signed.signature = try v1.createSignature(
                productId: productId, offerId: offerId, appAccountToken: token,
                nonce: try await reserveNonce(), timestamp: timestamp
            )
        }
        if format != .v1 {
            // The creator verifies the JWS against the public key before returning it.
            signed.jws = try jws.createSignature(
                productId: productId, offerIdentifier: offerId, transactionId: transactionId, nonce: try await reserveNonce()
            )
        }
        return signed
    }

    /// A fresh random nonce, reserved for 24 hours.
    private func reserveNonce() async throws -> UUID {
        for _ in 0..<3 {
            let nonce = UUID()
            let issuedAt = now().appStoreMilliseconds
            if try await repository.reserveOfferNonce(
                nonce.uuidString.lowercased(), issuedAt: issuedAt, expiresAt: issuedAt + Self.nonceLifetimeMilliseconds
            ) {
                return nonce
            }
        }
        throw SignatureError.invalidClaim("nonce: no unused nonce after three random draws")
    }
}
