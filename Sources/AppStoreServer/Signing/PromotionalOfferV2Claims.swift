/// The claims of a promotional-offer JWS (`aud` `promotional-offer`, reference §4.2).
///
/// There is deliberately no `exp`: Apple derives the expiry from `iat`.
public struct PromotionalOfferV2Claims: Codable, Hashable, Sendable {
    /// The audience of promotional-offer signatures.
    public static let audience = "promotional-offer"
    /// The claim names this JWS may carry.
    static let names: Set<String> = ["productId", "offerIdentifier", "transactionId", "iss", "bid", "aud", "iat", "nonce"]

    /// The subscription product the offer applies to.
    public var productId: String
    /// The offer identifier configured in App Store Connect.
    public var offerIdentifier: String
    /// Any transaction id of the customer (appTransactionId allowed); omitted from the JSON when nil.
    public var transactionId: String?
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
        productId: String, offerIdentifier: String, transactionId: String?,
        iss: String, bid: String, aud: String = Self.audience, iat: Int64, nonce: String
    ) {
        self.productId = productId
        self.offerIdentifier = offerIdentifier
        self.transactionId = transactionId
        self.iss = iss
        self.bid = bid
        self.aud = aud
        self.iat = iat
        self.nonce = nonce
    }
}
