import AppStoreServer
import Foundation
import RuleEngine

/// The body of `POST /v1/offers/signatures`: `{"productId", "offerId", "appAccountToken",
/// "transactionId", "format"}` (any other member is 400 `UNKNOWN_FIELD`), checked by
/// ``checked()`` (400) and ``Checked/check(against:)`` (422: the offer must be a promotional
/// offer of the product in the bundle's catalog).
public struct OfferSignatureRequest: JSONRequestBody {
    public static let expected = "a signature request object"

    public var productId: String?
    public var offerId: String?
    public var appAccountToken: String?
    public var transactionId: String?
    public var format: String?

    /// A member given as `null` or of another type is 400 `INVALID_FIELD`; any other member is
    /// 400 `UNKNOWN_FIELD`.
    public init(from decoder: any Decoder) throws {
        let body = try decoder.knownMembers(CodingKeys.self)
        productId = try body.field(.productId, "a non-empty string")
        offerId = try body.field(.offerId, "a non-empty string")
        appAccountToken = try body.field(.appAccountToken, "a UUID")
        transactionId = try body.field(.transactionId, "a transaction identifier")
        format = try body.field(.format, "one of v1, jws, both")
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case productId, offerId, appAccountToken, transactionId, format }

    /// The request's fields, validated.
    public struct Checked: Sendable, Equatable {
        public var productId: String
        public var offerId: String
        public var appAccountToken: UUID?
        public var transactionId: String?
        public var format: OfferSignatureFormat

        /// 422 unless `catalog` lists the offer as a promotional offer of the product.
        public func check(against catalog: OfferCatalog) throws(RequestBodyError) {
            guard let offer = catalog.offer(offerId) else {
                throw .unprocessable("OFFER_NOT_IN_CATALOG", "offer '\(offerId)' is not listed in the rule bundle's catalog.yaml")
            }
            guard offer.productIds.contains(productId) else {
                throw .unprocessable(
                    "PRODUCT_MISMATCH", "offer '\(offerId)' belongs to \(offer.productIds.joined(separator: ", ")), not '\(productId)'")
            }
            guard OfferType(ruleName: offer.type) == .promotionalOffer else {
                throw .unprocessable(
                    "NOT_A_PROMOTIONAL_OFFER", "offer '\(offerId)' is a \(offer.type) offer; StoreKit presents those without a signature")
            }
        }
    }

    /// The fields, validated (400 on a missing or malformed one).
    public func checked() throws(RequestBodyError) -> Checked {
        func required(_ value: String?, _ name: String) throws(RequestBodyError) -> String {
            guard let value, !value.isEmpty else { throw .badRequest("MISSING_FIELD", "'\(name)' is required") }
            guard value.unicodeScalars.count <= 200 else { throw .badRequest("INVALID_FIELD", "'\(name)' is too long") }
            return value
        }
        var token: UUID?
        if let appAccountToken {
            guard let uuid = UUID(uuidString: appAccountToken) else { throw .invalidField("appAccountToken", "a UUID") }
            token = uuid
        }
        if let transactionId, transactionId.isEmpty || transactionId.unicodeScalars.count > 64 {
            throw .invalidField("transactionId", "a transaction identifier")
        }
        let format = try OfferSignatureFormat.requested(format)
        return Checked(
            productId: try required(productId, "productId"), offerId: try required(offerId, "offerId"),
            appAccountToken: token, transactionId: transactionId, format: format
        )
    }
}
