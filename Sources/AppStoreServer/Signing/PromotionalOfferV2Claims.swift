/// The claims of a promotional-offer JWS (`aud` `promotional-offer`): the common
/// claims of ``AppStoreJWSClaims`` plus ``PromotionalOfferV2Fields``.
///
/// There is deliberately no `exp`: Apple derives the expiry from `iat`.
public typealias PromotionalOfferV2Claims = AppStoreJWSClaims<PromotionalOfferV2Fields>

/// The offer-specific claims of a promotional-offer JWS, read straight off
/// ``PromotionalOfferV2Claims`` (`claims.offerIdentifier`).
public struct PromotionalOfferV2Fields: AppStoreJWSFields {
    /// The audience of promotional-offer signatures.
    public static let audience = "promotional-offer"
    /// The offer-specific claim names.
    public static let claimNames: Set<String> = ["productId", "offerIdentifier", "transactionId"]

    /// The subscription product the offer applies to.
    public var productId: String
    /// The offer identifier configured in App Store Connect.
    public var offerIdentifier: String
    /// Any transaction id of the customer (appTransactionId allowed); omitted from the JSON when nil.
    public var transactionId: String?

    /// Creates the offer-specific claims.
    public init(productId: String, offerIdentifier: String, transactionId: String? = nil) {
        self.productId = productId
        self.offerIdentifier = offerIdentifier
        self.transactionId = transactionId
    }
}

extension AppStoreJWSClaims where Fields == PromotionalOfferV2Fields {
    /// Creates promotional-offer claims with explicit values.
    public init(
        productId: String, offerIdentifier: String, transactionId: String?,
        iss: String, bid: String, aud: String = Self.audience, iat: Int64, nonce: String
    ) {
        let fields = Fields(productId: productId, offerIdentifier: offerIdentifier, transactionId: transactionId)
        self.init(fields: fields, iss: iss, bid: bid, aud: aud, iat: iat, nonce: nonce)
    }
}
