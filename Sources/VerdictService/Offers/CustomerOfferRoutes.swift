import AppStoreServer
import Foundation
import HTTPTypes
import Hummingbird
import RuleEngine
import VerdictRequests
import VerdictStorage

/// What an app backend asks about one customer's offer: `GET /v1/subscriptions/{originalTransactionId}/offer`
/// (the pending offer; the deprecated `GET /v1/customers/{originalTransactionId}/offer` answers too) and `POST /v1/offers/decide` (decide now, e.g. on the app's own cancel
/// screen). Both answer the offer freshly signed, with the decision that made it.
struct CustomerOfferRoutes {
    let repository: any CustomerStore & OfferDecisionStore & TransactionStore
    let decider: OfferDecider
    let signer: OfferSigner?
    /// Why `signer` is nil.
    let signingUnavailableReason: String?
    let now: @Sendable () -> Date

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.get("/v1/subscriptions/{originalTransactionId}/offer") { request, context in
            try await pendingOffer(originalTransactionId: try context.originalTransactionId(), request)
        }
        // The path before each segment had one meaning (`/v1/customers/…` is the appAccountToken
        // elsewhere); it answers for one more release, marked deprecated with its successor.
        router.get("/v1/customers/{appAccountToken}/offer") { request, context in
            let originalTransactionId = try context.parameters.require("appAccountToken")
            var answer = try await pendingOffer(originalTransactionId: originalTransactionId, request)
            answer.headers[.deprecation] = Self.deprecatedSince
            answer.headers[.link] = "</v1/subscriptions/\(originalTransactionId.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")/offer>; rel=\"successor-version\""
            return answer
        }
        router.post("/v1/offers/decide") { request, context in
            let body = try await request.decode(as: OfferDecideRequest.self, context: context)
            let format = try OfferSigner.Format.requested(body.format)
            let trigger = try body.checkedTrigger()
            let originalTransactionId = try await resolve(body)
            // The environment is the subscription's own (the decider reads it from its transactions).
            let event = SubscriptionFacts.Event(type: trigger.type, subtype: trigger.subtype, environment: nil, signedDate: now())
            let decision: OfferDecisionRecord?
            do {
                decision = try await decider.decide(
                    originalTransactionId: originalTransactionId, event: event, notificationUUID: nil, trigger: trigger.name)
            } catch OfferDecider.Failure.noRules {
                throw ServiceError.unavailable("RULES_UNAVAILABLE", "no valid rule bundle is loaded")
            } catch OfferDecider.Failure.unknownCustomer(let id) {
                throw ServiceError.notFound("no transactions are stored for originalTransactionId \(id)")
            } catch OfferDecider.Failure.capsContended {
                throw ServiceError.unavailable("CAPS_CONTENDED", "other decisions kept taking this offer's capped slots; try again")
            }
            return try JSONBody.response(try await response(for: decision, format: format, decided: true))
        }
    }

    /// When `GET /v1/customers/{originalTransactionId}/offer` was deprecated (RFC 9745: `@` UNIX seconds, 2026-11-25).
    static let deprecatedSince = "@1795564800"

    /// The subscription's pending offer, freshly signed (`{"offer": null}` without one).
    func pendingOffer(originalTransactionId: String, _ request: Request) async throws -> Response {
        let format = try OfferSigner.Format.requested(try request.query("format"))
        let pending = try await repository.pendingOffer(originalTransactionId: originalTransactionId, now: now().appStoreMilliseconds)
        return try JSONBody.response(try await response(for: pending, format: format))
    }

    /// The decision's offer, signed when it is promotional and made (not held out).
    func response(for decision: OfferDecisionRecord?, format: OfferSigner.Format, decided: Bool = false) async throws -> OfferResponse {
        guard let decision else { return OfferResponse(offer: nil) }
        let explanation = JSONValue.parse(Data(decision.json.utf8))?.objectValue?["explanation"]?.stringValue
        var response = OfferResponse(
            decisionId: decision.id, ruleId: decision.ruleId, explanation: explanation, heldOut: decided ? decision.heldOut : nil)
        guard let offerId = decision.offerId, let productId = decision.productId, !decision.heldOut else { return response }
        var offer = OfferResponse.Offer(type: decision.offerType ?? "", productId: productId, offerId: offerId, expiresAt: decision.expiresAt)
        if decision.offerType.flatMap(OfferType.init(ruleName:)) == .promotionalOffer {
            guard let signer else {
                throw ServiceError.signingUnavailable(signingUnavailableReason)
            }
            let customer = try await repository.customer(originalTransactionId: decision.originalTransactionId)
            let latest = try await repository.transactions(originalTransactionId: decision.originalTransactionId).last
            let signed = try await signer.sign(
                productId: productId, offerId: offerId, appAccountToken: customer?.appAccountToken.flatMap(UUID.init(uuidString:)),
                transactionId: latest?.transactionId, format: format)
            offer.signature = signed.signature
            offer.jws = signed.jws
        }
        response.offer = offer
        return response
    }

    /// The subscription a decide request names (404 when none is stored).
    func resolve(_ body: OfferDecideRequest) async throws -> String {
        let notFound = ServiceError.notFound("no stored subscription matches the request")
        if let id = body.originalTransactionId, !id.isEmpty { return id }
        if let id = body.transactionId, !id.isEmpty {
            guard let transaction = try await repository.transaction(id: id) else { throw notFound }
            return transaction.originalTransactionId
        }
        if let token = body.appAccountToken {
            guard let uuid = UUID(uuidString: token) else {
                throw ServiceError.badRequest("INVALID_FIELD", "'appAccountToken' must be a UUID")
            }
            // The customer's most recently seen subscription.
            guard let customer = try await repository.customers(appAccountToken: uuid.uuidString.lowercased()).last else { throw notFound }
            return customer.originalTransactionId
        }
        throw ServiceError.badRequest("MISSING_FIELD", "one of 'originalTransactionId', 'transactionId', 'appAccountToken' is required")
    }

    /// The answer of both endpoints: `{"offer": null}` without an offer.
    struct OfferResponse: Encodable {
        struct Offer: Encodable {
            var type: String
            var productId: String
            var offerId: String
            var expiresAt: Int64?
            var signature: PromotionalOfferSignature?
            var jws: String?
        }

        var decisionId: String?
        var ruleId: String?
        var explanation: String?
        /// Decide only: whether the customer is in the holdout.
        var heldOut: Bool?
        var offer: Offer?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(decisionId, forKey: .decisionId)
            try container.encodeIfPresent(ruleId, forKey: .ruleId)
            try container.encodeIfPresent(explanation, forKey: .explanation)
            try container.encodeIfPresent(heldOut, forKey: .heldOut)
            try container.encode(offer, forKey: .offer)
        }

        enum CodingKeys: String, CodingKey { case decisionId, ruleId, explanation, heldOut, offer }
    }
}

extension HTTPField.Name {
    /// RFC 9745: the resource is deprecated (since the `@`-date given).
    static let deprecation = Self("Deprecation")!
    /// RFC 8288 web linking (the deprecated resource's `successor-version`).
    static let link = Self("Link")!
}
