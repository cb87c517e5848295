/// Verifies introductory-offer-eligibility JWS signatures (``AppStoreJWSVerifier`` for
/// ``IntroductoryOfferEligibilityClaims``): header (`alg` ES256, `kid`, `typ` JWT), ES256 signature,
/// `aud` `introductory-offer-eligibility`, `iss`, `bid`, a present `transactionId` and
/// `allowIntroductoryOffer`, a lowercase UUID `nonce`, and no claim outside
/// ``IntroductoryOfferEligibilityClaims`` (such as `exp`).
public typealias IntroductoryOfferEligibilitySignatureVerifier = AppStoreJWSVerifier<IntroductoryOfferEligibilityFields>
