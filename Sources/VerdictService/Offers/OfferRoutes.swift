import AppStoreServer
import Foundation
import Hummingbird
import RuleEngine
import VerdictRequests

/// `POST /v1/offers/signatures`: signs a promotional offer from the active bundle's catalog for an
/// app backend (bearer token).
///
/// It acts for the request's one app (``RequestApps/single()``: the token's only app, or the one
/// the `Verdict-App` header names): the offer is checked against that app's catalog and signed
/// with that app's own In-App Purchase key, whose signature only that app's StoreKit accepts.
struct OfferRoutes {
    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.post("/v1/offers/signatures") { request, context in
            let body = try await request.decode(as: OfferSignatureRequest.self, context: context)
            let checked = try body.checked()
            let app = try context.apps.single()
            guard let bundle = app.rules.current else {
                throw ServiceError.unavailable("RULES_UNAVAILABLE", "no valid rule bundle is loaded, so the offer catalog is unknown")
            }
            try checked.check(against: bundle.catalog)
            guard let signer = app.offerSigner else {
                throw ServiceError.signingUnavailable(app.appStore.unavailableReason)
            }
            let signed = try await signer.sign(
                productId: checked.productId, offerId: checked.offerId, appAccountToken: checked.appAccountToken,
                transactionId: checked.transactionId, format: checked.format
            )
            return try JSONBody.response(SignatureResponse(
                productId: checked.productId, offerId: checked.offerId, type: OfferType.promotionalOffer.ruleName,
                signature: signed.signature, jws: signed.jws
            ))
        }
    }

    /// The response body.
    struct SignatureResponse: Encodable {
        var productId: String
        var offerId: String
        var type: String
        var signature: PromotionalOfferSignature?
        var jws: String?
    }
}

extension ServiceError {
    /// 503: a promotional offer cannot be signed without an In-App Purchase key.
    static func signingUnavailable(_ reason: String?) -> Self {
        .unavailable("SIGNING_UNAVAILABLE", reason ?? "no In-App Purchase key is configured")
    }
}
