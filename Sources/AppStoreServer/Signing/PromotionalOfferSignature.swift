/// A legacy ("V1") promotional-offer signature and the values the app must pass to StoreKit with it.
///
/// StoreKit 2: `Product.SubscriptionOffer.Signature(keyID: keyIdentifier, nonce: UUID(uuidString:
/// nonce)!, timestamp: Int(timestamp), signature: Data(base64Encoded: signature)!)` — the app must
/// Base64-decode ``signature`` itself. The offer is valid for 24 hours from ``timestamp``.
public struct PromotionalOfferSignature: Codable, Hashable, Sendable {
    /// The App Store Connect key identifier the signature was made with.
    public var keyIdentifier: String
    /// The one-time nonce, a UUID string in lowercase.
    public var nonce: String
    /// The signing time, milliseconds since 1970.
    public var timestamp: Int64
    /// The ECDSA P-256 / SHA-256 signature, ASN.1 DER, standard Base64 with padding.
    public var signature: String

    /// Creates a signature record.
    public init(keyIdentifier: String, nonce: String, timestamp: Int64, signature: String) {
        self.keyIdentifier = keyIdentifier
        self.nonce = nonce
        self.timestamp = timestamp
        self.signature = signature
    }
}
