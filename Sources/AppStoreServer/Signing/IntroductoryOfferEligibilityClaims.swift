/// The claims of an introductory-offer-eligibility JWS (`aud` `introductory-offer-eligibility`,
/// reference §4.2), which overrides whether StoreKit offers the customer an introductory offer.
///
/// There is deliberately no `exp`: Apple derives the expiry from `iat`.
public struct IntroductoryOfferEligibilityClaims: Codable, Hashable, Sendable {
    /// The audience of introductory-offer-eligibility signatures.
    public static let audience = "introductory-offer-eligibility"
    /// The claim names this JWS may carry.
    static let names: Set<String> = ["productId", "allowIntroductoryOffer", "transactionId", "iss", "bid", "aud", "iat", "nonce"]

    /// The subscription product.
    public var productId: String
    /// Whether the customer may get the introductory offer.
    public var allowIntroductoryOffer: Bool
    /// Any transaction id of the customer (required).
    public var transactionId: String
    /// The App Store Connect issuer id.
    public var iss: String
    /// The app's bundle identifier.
    public var bid: String
    /// Always ``audience``.
    public var aud: String
    /// Issue time, whole seconds since 1970.
    public var iat: Int64
    /// A one-time UUID in lowercase.
    public var nonce: String

    /// Creates claims with explicit values.
    public init(
        productId: String, allowIntroductoryOffer: Bool, transactionId: String,
        iss: String, bid: String, aud: String = Self.audience, iat: Int64, nonce: String
    ) {
        self.productId = productId
        self.allowIntroductoryOffer = allowIntroductoryOffer
        self.transactionId = transactionId
        self.iss = iss
        self.bid = bid
        self.aud = aud
        self.iat = iat
        self.nonce = nonce
    }
}
