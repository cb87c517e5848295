import Foundation

/// Creates promotional-offer JWS signatures for `Product.PurchaseOption.promotionalOffer(_:compactJWS:)`
/// (StoreKit 2): ``AppStoreJWSCreator`` with claims ``PromotionalOfferV2Claims``.
///
/// Header `{"alg":"ES256","kid":…,"typ":"JWT"}`; an integer `iat`, a fresh lowercase `nonce` and no
/// `exp`. Each JWS is verified with the public key before it is returned.
public typealias PromotionalOfferV2SignatureCreator = AppStoreJWSCreator<PromotionalOfferV2Fields>

extension AppStoreJWSCreator where Fields == PromotionalOfferV2Fields {
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
        try createSignature(
            for: Fields(productId: productId, offerIdentifier: offerIdentifier, transactionId: transactionId),
            nonce: nonce
        )
    }
}
