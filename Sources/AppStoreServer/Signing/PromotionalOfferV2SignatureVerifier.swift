/// Verifies promotional-offer JWS signatures (``AppStoreJWSVerifier`` for ``PromotionalOfferV2Claims``):
/// header (`alg` ES256, `kid`, `typ` JWT), ES256 signature, `aud` `promotional-offer`, `iss`, `bid`,
/// a lowercase UUID `nonce`, and that no claim outside ``PromotionalOfferV2Claims`` (such as `exp`)
/// is present.
public typealias PromotionalOfferV2SignatureVerifier = AppStoreJWSVerifier<PromotionalOfferV2Fields>
