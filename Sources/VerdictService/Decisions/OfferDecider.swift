import AppStoreServer
import Foundation
import RuleEngine
import VerdictStorage

/// Decides which retention offer a subscriber gets: gathers what Apple signed about the
/// subscription (stored transactions and renewal info), the app's attributes and Verdict's earlier
/// decisions into ``SubscriptionFacts``, counts the limits in the database, runs the active rule
/// bundle, and stores the decision record — the decision with its explanation and the facts it saw,
/// enough to re-run it later. A made offer is the customer's pending offer for the catalog's
/// `expiresAfter` (default 7 days).
public struct OfferDecider: Sendable {
    /// Why no decision could be made.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case noRules
        case unknownCustomer(String)
        case invalidFacts(String)
        /// Other decisions kept taking the capped slots this one was about to use.
        case capsContended

        public var description: String {
            switch self {
            case .noRules: "no valid rule bundle is loaded"
            case .capsContended: "the offer caps changed under this decision \(OfferDecider.cappedRetries) times; it will be retried"
            case .unknownCustomer(let id): "no transactions are stored for originalTransactionId \(id)"
            case .invalidFacts(let reason): "the facts do not fit the bundle's schema: \(reason)"
            }
        }
    }

    /// How long a made offer stays pending when the catalog does not say.
    public static let offerLifetimeMilliseconds: Int64 = 7 * 86_400_000
    /// How many earlier decisions the facts list.
    static let pastDecisionLimit = 50
    /// How often a decision is made again when a cap was used up as it was being stored.
    static let cappedRetries = 5

    /// The stores a decision reads and writes.
    public typealias Stores = CustomerAttributeStore & CustomerStore & OfferDecisionStore & TransactionStore

    let repository: any Stores
    let rules: BundleStore
    /// Whether a made offer enqueues an `offer.targeted` webhook event.
    let webhooks: Bool
    let metrics: ServiceMetrics
    let now: @Sendable () -> Date

    public init(repository: any Stores, rules: BundleStore, webhooks: Bool = false, metrics: ServiceMetrics,
                now: @escaping @Sendable () -> Date) {
        self.repository = repository
        self.rules = rules
        self.webhooks = webhooks
        self.metrics = metrics
        self.now = now
    }

    /// Decides for the subscription `originalTransactionId` on `event`. Returns nil when the bundle
    /// has no offers section or its `appliesTo` leaves this event out (nothing is stored then).
    /// `decoded` are the payloads the notification's job already decoded (not decoded again).
    public func decide(
        originalTransactionId: String, event: SubscriptionFacts.Event, notificationUUID: String?, trigger: String,
        decoded: DecodedPayloads = DecodedPayloads()
    ) async throws -> OfferDecisionRecord? {
        guard let bundle = rules.current else { throw Failure.noRules }
        guard let offers = bundle.offers, Self.mayApply(bundle, event) else { return nil }
        let facts = try await gatherFacts(originalTransactionId: originalTransactionId, event: event, decoded: decoded)
        let document = facts.factDocument
        let json = document.json
        let typed: Facts
        do {
            typed = try Facts(FactData(json), schema: bundle.schema)
        } catch {
            throw Failure.invalidFacts(error.description)
        }
        let customerUnit = bundle.customerUnit(typed, now: event.signedDate.appStoreMilliseconds)
        // Caps are counted before deciding and again, atomically, when the decision is stored: when
        // another instance took the last slot meanwhile, decide again on the new counts.
        for _ in 0..<Self.cappedRetries {
            let decidedAt = now().appStoreMilliseconds
            let limits = try await CountedLimits.prefetch(
                perCustomer: offers.perCustomer, perOffer: offers.perOffer, customerUnit: customerUnit, now: decidedAt,
                repository: repository)
            let decision = RuleEvaluationSpan.evaluate(.offers, bundle: bundle, app: metrics.app ?? "") {
                bundle.decide(typed, now: event.signedDate.appStoreMilliseconds, limits: limits)
            }
            guard decision.section == .offers else { return nil }
            switch try await store(
                decision, facts: json, productId: document.subscription?.productId, historyComplete: facts.historyComplete,
                bundle: bundle, originalTransactionId: originalTransactionId,
                notificationUUID: notificationUUID, trigger: trigger, customerUnit: customerUnit, decidedAt: decidedAt) {
            case .stored(let record): return record
            case .capped: continue
            }
        }
        throw Failure.capsContended
    }

    /// Stores `decision`, with the caps of the offer it makes.
    private func store(
        _ decision: Decision, facts: JSONValue, productId subscriptionProduct: String?, historyComplete: Bool, bundle: RuleBundle,
        originalTransactionId: String,
        notificationUUID: String?, trigger: String, customerUnit: String?, decidedAt: Int64
    ) async throws -> OfferDecisionInsert {
        let record = try Self.record(
            decision, facts: facts, productId: subscriptionProduct, historyComplete: historyComplete, bundle: bundle,
            id: UUID().uuidString.lowercased(), originalTransactionId: originalTransactionId,
            notificationUUID: notificationUUID, trigger: trigger, customerUnit: customerUnit, decidedAt: decidedAt)
        var event: NewJob?
        if webhooks, record.offerId != nil, !record.heldOut {
            let token = try await repository.customer(originalTransactionId: originalTransactionId)?.appAccountToken
            event = WebhookEvent.job(body: WebhookEvent.offerTargeted(record, appAccountToken: token), key: record.id, at: decidedAt)
        }
        let caps = CountedLimits.caps(
            of: record, perCustomer: bundle.offers?.perCustomer, perOffer: bundle.offers?.perOffer ?? [:], customerUnit: customerUnit)
        let stored = try await repository.insertOfferDecision(record, followUp: event, caps: caps)
        if case .stored(let kept) = stored, kept.id == record.id {
            metrics.decision(section: "offers", historyComplete: historyComplete, rule: record.ruleId)
        }
        return stored
    }

    /// The stored record of `decision` (made by `bundle` on `facts` for a subscription to
    /// `subscriptionProduct`): the offer shown (or the counterfactual of a held-out customer), its
    /// rule, product and expiry, and the record JSON.
    static func record(
        _ decision: Decision, facts: JSONValue, productId subscriptionProduct: String?, historyComplete: Bool,
        bundle: RuleBundle, id: String, originalTransactionId: String, notificationUUID: String?, trigger: String,
        customerUnit: String?, decidedAt: Int64
    ) throws -> OfferDecisionRecord {
        let shown = decision.heldOut ? decision.counterfactual : decision.offer
        let rule = decision.heldOut ? decision.counterfactualRule : decision.rule
        return OfferDecisionRecord(
            id: id, originalTransactionId: originalTransactionId,
            notificationUUID: notificationUUID, trigger: trigger, bundleHash: bundle.hash,
            ruleId: rule?.id, ruleLine: rule?.line, offerId: shown?.id, offerType: shown?.type.ruleName,
            productId: Self.product(for: shown, in: bundle.catalog, subscriptionProduct: subscriptionProduct),
            heldOut: decision.heldOut, decidedAt: decidedAt,
            expiresAt: decision.offer.map { decidedAt + Self.lifetime(of: $0, in: bundle) },
            json: try Self.recordJSON(decision, facts: facts, historyComplete: historyComplete),
            customerUnit: customerUnit,
            currency: facts.value(at: "subscription.currency")?.stringValue
        )
    }

    /// The product an offer is for: the subscription's own when the catalog configures the offer
    /// for it, else the offer's first configured product (a win-back offer for another plan).
    static func product(for offer: Decision.OfferChoice?, in catalog: OfferCatalog, subscriptionProduct: String?) -> String? {
        guard let offer, let configured = catalog.offer(offer.id)?.productIds, !configured.isEmpty else {
            return subscriptionProduct
        }
        if let subscriptionProduct, configured.contains(subscriptionProduct) { return subscriptionProduct }
        return configured.first
    }

    /// How long `offer` stays pending: the rule's `expiresAfter`, else the catalog's, else 7 days.
    static func lifetime(of offer: Decision.OfferChoice, in bundle: RuleBundle) -> Int64 {
        offer.expiresAfter?.millis ?? bundle.catalog.offer(offer.id)?.expiresAfter ?? offerLifetimeMilliseconds
    }

    /// Whether the offers section's `appliesTo` may hold for `event`, judged on the event alone
    /// (cheap: no history is read for events the bundle ignores). An `appliesTo` that reads more
    /// than the event cannot be judged so, and counts as "may apply".
    static func mayApply(_ bundle: RuleBundle, _ event: SubscriptionFacts.Event) -> Bool {
        guard let facts = try? Facts(FactData(FactDocument(event: event).json), schema: bundle.schema) else { return true }
        let probe = bundle.decide(facts, now: event.signedDate.appStoreMilliseconds, explain: false)
        return probe.section == .offers || probe.errors.contains { $0.rule.id == "appliesTo" }
    }

    /// The facts for one subscription from the database: each stored payload decoded once, or
    /// taken from `decoded` when the job has it at hand.
    func gatherFacts(originalTransactionId: String, event: SubscriptionFacts.Event, decoded: DecodedPayloads) async throws
        -> SubscriptionFacts {
        let decoder = AppStoreJSON.decoder()
        let transactions = try await repository.customerTransactions(originalTransactionId: originalTransactionId).map {
            try decoded.transaction($0, decoder: decoder)
        }
        guard transactions.contains(where: { $0.originalTransactionId == originalTransactionId }) else {
            throw Failure.unknownCustomer(originalTransactionId)
        }
        let renewalInfo = try await repository.renewalInfo(originalTransactionId: originalTransactionId).map {
            try decoded.renewalInfo($0, decoder: decoder)
        }
        let customer = try await repository.customer(originalTransactionId: originalTransactionId)
        var attributes: JSONValue?
        if let token = customer?.appAccountToken, let stored = try await repository.customerAttributes(appAccountToken: token) {
            attributes = JSONValue.parse(Data(stored.json.utf8))
        }
        let past = try await repository.offerDecisions(originalTransactionId: originalTransactionId, limit: Self.pastDecisionLimit)
            .compactMap { record -> SubscriptionFacts.PastDecision? in
                guard let offerId = record.offerId, let ruleId = record.ruleId, !record.heldOut else { return nil }
                return .init(offerId: offerId, ruleId: ruleId, date: Date(appStoreMilliseconds: record.decidedAt))
            }
        // An on-demand event has no environment of its own: the subscription's latest transaction's.
        var event = event
        if event.environment == nil { event.environment = transactions.last?.environment }
        return SubscriptionFacts(
            event: event, originalTransactionId: originalTransactionId, transactions: transactions,
            renewalInfo: renewalInfo, attributes: attributes, decisions: past,
            historyComplete: customer?.historySyncedAt != nil)
    }

    /// `{"decision": …, "explanation": "…", "facts": …, "historyComplete": …}`.
    static func recordJSON(_ decision: Decision, facts: JSONValue, historyComplete: Bool) throws -> String {
        struct Record: Encodable {
            var decision: Decision
            var explanation: String
            var facts: JSONValue
            var historyComplete: Bool
        }
        let data = try JSONEncoder.service.encode(Record(
            decision: decision, explanation: decision.renderText(), facts: facts, historyComplete: historyComplete))
        return String(decoding: data, as: UTF8.self)
    }
}

/// Limits answered from counts taken in the database just before deciding: offers granted to this
/// customer (the bundle's customer unit), and of each budgeted offer, inside the bundle's windows.
/// Storing the decision counts the caps it uses again, atomically (see
/// ``OfferDecisionStore/insertOfferDecision(_:followUp:caps:)``), so two instances cannot both take
/// a last slot.
struct CountedLimits: LimitsPort {
    var customer: Int
    var offers: [String: Int]

    static func prefetch(
        perCustomer: OfferLimit?, perOffer: [String: OfferLimit], customerUnit: String?, now: Int64,
        repository: any OfferDecisionStore
    ) async throws -> CountedLimits {
        var customer = 0
        if let limit = perCustomer, let customerUnit {
            customer = try await repository.grantedOffers(.customer(customerUnit), since: now - limit.within)
        }
        var offers: [String: Int] = [:]
        for (offerId, limit) in perOffer {
            offers[offerId] = try await repository.grantedOffers(.offer(offerId), since: now - limit.within)
        }
        return CountedLimits(customer: customer, offers: offers)
    }

    /// The caps storing `record` must respect (counted again atomically by the store): its offer's
    /// per-customer and per-offer limits; none for a decision without an offer or held out.
    static func caps(
        of record: OfferDecisionRecord, perCustomer: OfferLimit?, perOffer: [String: OfferLimit], customerUnit: String?
    ) -> [OfferCap] {
        guard let offerId = record.offerId, !record.heldOut else { return [] }
        var caps: [OfferCap] = []
        if let limit = perCustomer, let customerUnit {
            caps.append(OfferCap(scope: .customer(customerUnit), max: limit.max, since: record.decidedAt - limit.within))
        }
        if let limit = perOffer[offerId] {
            caps.append(OfferCap(scope: .offer(offerId), max: limit.max, since: record.decidedAt - limit.within))
        }
        return caps
    }

    func grantedCount(_ scope: LimitScope, window: Int64, now: Int64) -> Int {
        switch scope {
        case .customer: customer
        case .offer(let id): offers[id] ?? 0
        }
    }
}
