import AppStoreServer
import Foundation
import Hummingbird
import RuleEngine

/// `POST /v1/offers/signatures`: signs a promotional offer from the active bundle's catalog for an
/// app backend (bearer token).
struct OfferRoutes {
    let rules: BundleStore
    /// Nil when no In-App Purchase key is configured.
    let signer: OfferSigner?
    /// Why `signer` is nil.
    let signingUnavailableReason: String?

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.post("/v1/offers/signatures") { request, context in
            let body = try await request.decode(as: SignatureRequest.self, context: context)
            let checked = try body.checked()
            guard let bundle = rules.current else {
                throw ServiceError.unavailable("RULES_UNAVAILABLE", "no valid rule bundle is loaded, so the offer catalog is unknown")
            }
            try Self.checkCatalog(bundle.catalog, productId: checked.productId, offerId: checked.offerId)
            guard let signer else {
                throw ServiceError.signingUnavailable(signingUnavailableReason)
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

    /// 422 unless the catalog lists `offerId` as a promotional offer of `productId`.
    static func checkCatalog(_ catalog: OfferCatalog, productId: String, offerId: String) throws {
        guard let offer = catalog.offer(offerId) else {
            throw ServiceError.unprocessable("OFFER_NOT_IN_CATALOG", "offer '\(offerId)' is not listed in the rule bundle's catalog.yaml")
        }
        guard offer.productIds.contains(productId) else {
            throw ServiceError.unprocessable(
                "PRODUCT_MISMATCH", "offer '\(offerId)' belongs to \(offer.productIds.joined(separator: ", ")), not '\(productId)'")
        }
        guard OfferType(ruleName: offer.type) == .promotionalOffer else {
            throw ServiceError.unprocessable(
                "NOT_A_PROMOTIONAL_OFFER", "offer '\(offerId)' is a \(offer.type) offer; StoreKit presents those without a signature")
        }
    }

    /// The request body.
    struct SignatureRequest: RequestBody {
        static let expected = "a signature request object"

        var productId: String?
        var offerId: String?
        var appAccountToken: String?
        var transactionId: String?
        var format: String?

        /// A member given as `null` or of another type is 400 `INVALID_FIELD`; other members are ignored.
        init(from decoder: any Decoder) throws {
            let body = try decoder.container(keyedBy: CodingKeys.self)
            productId = try body.field(.productId, "a non-empty string")
            offerId = try body.field(.offerId, "a non-empty string")
            appAccountToken = try body.field(.appAccountToken, "a UUID")
            transactionId = try body.field(.transactionId, "a transaction identifier")
            format = try body.field(.format, "one of v1, jws, both")
        }

        enum CodingKeys: String, CodingKey { case productId, offerId, appAccountToken, transactionId, format }

        struct Checked {
            var productId: String
            var offerId: String
            var appAccountToken: UUID?
            var transactionId: String?
            var format: OfferSigner.Format
        }

        /// The fields, validated (400 on a missing or malformed one).
        func checked() throws -> Checked {
            func required(_ value: String?, _ name: String) throws -> String {
                guard let value, !value.isEmpty else {
                    throw ServiceError.badRequest("MISSING_FIELD", "'\(name)' is required")
                }
                guard value.unicodeScalars.count <= 200 else { throw ServiceError.badRequest("INVALID_FIELD", "'\(name)' is too long") }
                return value
            }
            var token: UUID?
            if let appAccountToken {
                guard let uuid = UUID(uuidString: appAccountToken) else {
                    throw ServiceError.badRequest("INVALID_FIELD", "'appAccountToken' must be a UUID")
                }
                token = uuid
            }
            if let transactionId, transactionId.isEmpty || transactionId.unicodeScalars.count > 64 {
                throw ServiceError.badRequest("INVALID_FIELD", "'transactionId' must be a transaction identifier")
            }
            let format = try OfferSigner.Format.requested(format)
            return Checked(
                productId: try required(productId, "productId"), offerId: try required(offerId, "offerId"),
                appAccountToken: token, transactionId: transactionId, format: format
            )
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

extension OfferSigner.Format {
    /// The format a request asks for (`both` when absent); 400 `INVALID_FIELD` for anything else.
    static func requested(_ text: String?) throws -> Self {
        guard let format = Self(rawValue: text ?? "both") else {
            throw ServiceError.badRequest("INVALID_FIELD", "'format' must be one of v1, jws, both")
        }
        return format
    }
}

extension ServiceError {
    /// 503: a promotional offer cannot be signed without an In-App Purchase key.
    static func signingUnavailable(_ reason: String?) -> Self {
        .unavailable("SIGNING_UNAVAILABLE", reason ?? "no In-App Purchase key is configured")
    }
}
