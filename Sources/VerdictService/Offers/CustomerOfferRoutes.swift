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
///
/// Each acts for the subscription's app, among those the request may act for (``RequestApps``):
/// its decider decides and its own In-App Purchase key signs. A subscription of another app is
/// answered as an unknown one (no pending offer; 404 for a decision).
struct CustomerOfferRoutes {
    let now: @Sendable () -> Date

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.get("/v1/subscriptions/{originalTransactionId}/offer") { request, context in
            try await pendingOffer(originalTransactionId: try context.originalTransactionId(), request, context)
        }
        // The path before each segment had one meaning (`/v1/customers/…` is the appAccountToken
        // elsewhere); it answers for one more release, marked deprecated with its successor. Its
        // segment is an originalTransactionId, so it is found through the record as its successor is.
        router.get("/v1/customers/{appAccountToken}/offer") { request, context in
            let originalTransactionId = try context.parameters.require("appAccountToken")
            var answer = try await pendingOffer(originalTransactionId: originalTransactionId, request, context)
            answer.headers[.deprecation] = Self.deprecatedSince
            answer.headers[.link] = "</v1/subscriptions/\(originalTransactionId.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")/offer>; rel=\"successor-version\""
            return answer
        }
        router.post("/v1/offers/decide") { request, context in
            let body = try await request.decode(as: OfferDecideRequest.self, context: context)
            let format = try OfferSigner.Format.requested(body.format)
            let trigger = try body.checkedTrigger()
            let (app, originalTransactionId) = try await resolve(body, context.apps)
            // The environment is the subscription's own (the decider reads it from its transactions).
            let event = SubscriptionFacts.Event(type: trigger.type, subtype: trigger.subtype, environment: nil, signedDate: now())
            let decision: OfferDecisionRecord?
            do {
                decision = try await app.offerDecider.decide(
                    originalTransactionId: originalTransactionId, event: event, notificationUUID: nil, trigger: trigger.name)
            } catch OfferDecider.Failure.noRules {
                throw ServiceError.unavailable("RULES_UNAVAILABLE", "no valid rule bundle is loaded")
            } catch OfferDecider.Failure.unknownCustomer(let id) {
                throw ServiceError.notFound("no transactions are stored for originalTransactionId \(id)")
            } catch OfferDecider.Failure.capsContended {
                throw ServiceError.unavailable("CAPS_CONTENDED", "other decisions kept taking this offer's capped slots; try again")
            }
            return try JSONBody.response(try await response(for: decision, of: app, format: format, decided: true))
        }
    }

    /// When `GET /v1/customers/{originalTransactionId}/offer` was deprecated (RFC 9745: `@` UNIX seconds, 2026-11-25).
    static let deprecatedSince = "@1795564800"

    /// The subscription's pending offer, freshly signed by its app (`{"offer": null}` without one):
    /// the pending offer of the first app that has one for the subscription.
    func pendingOffer(originalTransactionId: String, _ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let format = try OfferSigner.Format.requested(try request.query("format"))
        let at = now().appStoreMilliseconds
        guard let (app, pending) = try await context.apps.locate({
            try await $0.repository.pendingOffer(originalTransactionId: originalTransactionId, now: at)
        }) else {
            return try JSONBody.response(OfferResponse(offer: nil))
        }
        return try JSONBody.response(try await response(for: pending, of: app, format: format))
    }

    /// The decision's offer, signed with `app`'s key when it is promotional and made (not held out).
    func response(
        for decision: OfferDecisionRecord?, of app: AppContext, format: OfferSigner.Format, decided: Bool = false
    ) async throws -> OfferResponse {
        guard let decision else { return OfferResponse(offer: nil) }
        let explanation = JSONValue.parse(Data(decision.json.utf8))?.objectValue?["explanation"]?.stringValue
        var response = OfferResponse(
            decisionId: decision.id, ruleId: decision.ruleId, explanation: explanation, heldOut: decided ? decision.heldOut : nil)
        guard let offerId = decision.offerId, let productId = decision.productId, !decision.heldOut else { return response }
        var offer = OfferResponse.Offer(type: decision.offerType ?? "", productId: productId, offerId: offerId, expiresAt: decision.expiresAt)
        if decision.offerType.flatMap(OfferType.init(ruleName:)) == .promotionalOffer {
            guard let signer = app.offerSigner else {
                throw ServiceError.signingUnavailable(app.appStore.unavailableReason)
            }
            let customer = try await app.repository.customer(originalTransactionId: decision.originalTransactionId)
            let latest = try await app.repository.transactions(originalTransactionId: decision.originalTransactionId).last
            let signed = try await signer.sign(
                productId: productId, offerId: offerId, appAccountToken: customer?.appAccountToken.flatMap(UUID.init(uuidString:)),
                transactionId: latest?.transactionId, format: format)
            offer.signature = signed.signature
            offer.jws = signed.jws
        }
        response.offer = offer
        return response
    }

    /// The subscription a decide request names, with the app it is decided for (404 when none is
    /// stored): an originalTransactionId is decided by the app that stores it — else by the
    /// request's one app, whose decider answers an unknown subscription as a single-app service
    /// does (``RequestApps/owner(_:)``); a transactionId is found through its record; an
    /// appAccountToken is the request's one app's (``RequestApps/single()``).
    func resolve(_ body: OfferDecideRequest, _ apps: RequestApps) async throws -> (app: AppContext, originalTransactionId: String) {
        let notFound = ServiceError.notFound("no stored subscription matches the request")
        if let id = body.originalTransactionId, !id.isEmpty {
            return (try await apps.owner { try await $0.holdsSubscription(id) }, id)
        }
        if let id = body.transactionId, !id.isEmpty {
            guard let (app, transaction) = try await apps.locate({ try await $0.repository.transaction(id: id) }) else { throw notFound }
            return (app, transaction.originalTransactionId)
        }
        if let token = body.appAccountToken {
            guard let uuid = UUID(uuidString: token) else {
                throw ServiceError.badRequest("INVALID_FIELD", "'appAccountToken' must be a UUID")
            }
            let app = try apps.single()
            // The customer's most recently seen subscription.
            guard let customer = try await app.repository.customers(appAccountToken: uuid.uuidString.lowercased()).last else { throw notFound }
            return (app, customer.originalTransactionId)
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
