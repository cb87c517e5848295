/// The claims of an introductory-offer-eligibility JWS (`aud` `introductory-offer-eligibility`,
/// one of StoreKit's signed JWS kinds), which overrides whether StoreKit offers the customer an introductory offer:
/// the common claims of ``AppStoreJWSClaims`` plus ``IntroductoryOfferEligibilityFields``.
///
/// There is deliberately no `exp`: Apple derives the expiry from `iat`.
public typealias IntroductoryOfferEligibilityClaims = AppStoreJWSClaims<IntroductoryOfferEligibilityFields>

/// The eligibility-specific claims of an introductory-offer-eligibility JWS, read straight off
/// ``IntroductoryOfferEligibilityClaims`` (`claims.allowIntroductoryOffer`).
public struct IntroductoryOfferEligibilityFields: AppStoreJWSFields {
    /// The audience of introductory-offer-eligibility signatures.
    public static let audience = "introductory-offer-eligibility"
    /// The eligibility-specific claim names.
    public static let claimNames: Set<String> = ["productId", "allowIntroductoryOffer", "transactionId"]

    /// The subscription product.
    public var productId: String
    /// Whether the customer may get the introductory offer.
    public var allowIntroductoryOffer: Bool
    /// Any transaction id of the customer (required: a JWS without it does not verify).
    public var transactionId: String

    /// Creates the eligibility-specific claims.
    public init(productId: String, allowIntroductoryOffer: Bool, transactionId: String) {
        self.productId = productId
        self.allowIntroductoryOffer = allowIntroductoryOffer
        self.transactionId = transactionId
    }
}

extension AppStoreJWSClaims where Fields == IntroductoryOfferEligibilityFields {
    /// Creates introductory-offer-eligibility claims with explicit values.
    public init(
        productId: String, allowIntroductoryOffer: Bool, transactionId: String,
        iss: String, bid: String, aud: String = Self.audience, iat: Int64, nonce: String
    ) {
        let fields = Fields(productId: productId, allowIntroductoryOffer: allowIntroductoryOffer, transactionId: transactionId)
        self.init(fields: fields, iss: iss, bid: bid, aud: aud, iat: iat, nonce: nonce)
    }
}
