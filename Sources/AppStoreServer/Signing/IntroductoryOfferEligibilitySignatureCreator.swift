import Foundation

/// Creates introductory-offer-eligibility JWS signatures (a StoreKit signed JWS), which tell StoreKit
/// whether to offer a customer the introductory offer: ``AppStoreJWSCreator`` with claims
/// ``IntroductoryOfferEligibilityClaims``.
///
/// Header `{"alg":"ES256","kid":…,"typ":"JWT"}`; an integer `iat`, a fresh lowercase `nonce` and no
/// `exp`. Each JWS is verified with the public key before it is returned.
public typealias IntroductoryOfferEligibilitySignatureCreator = AppStoreJWSCreator<IntroductoryOfferEligibilityFields>

extension AppStoreJWSCreator where Fields == IntroductoryOfferEligibilityFields {
    /// Signs an eligibility decision for `productId` and the customer owning `transactionId`.
    ///
    /// - Parameter nonce: the nonce; a fresh random UUID when nil.
    public func createSignature(
        productId: String,
        allowIntroductoryOffer: Bool,
        transactionId: String,
        nonce: UUID? = nil
    ) throws(SignatureError) -> String {
        try createSignature(
            for: Fields(productId: productId, allowIntroductoryOffer: allowIntroductoryOffer, transactionId: transactionId),
            nonce: nonce
        )
    }
}
