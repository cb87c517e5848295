import AppStoreServer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Builds the facts document an offer decision is made on (the `event`, `subscription` and
/// `customer` roots, ``FactDocument``) from what Apple signed: the notification, the customer's
/// transactions and the subscription's renewal info. Pure: no I/O.
///
/// Enumerations are written as Apple's wire values (the rule engine accepts either); values newer
/// than this code are left out, so a rule reading one fails with an explained error instead of
/// deciding on a guess. Prices are milliunits with their currency.
public struct SubscriptionFacts: Sendable {
    /// The notification being decided.
    public typealias Event = FactDocument.Event
    /// An offer Verdict chose for this customer before (`customer.decisions[]`).
    public typealias PastDecision = FactDocument.PastDecision

    /// At most this many transactions are listed under `customer.transactions` (newest first).
    public static let transactionLimit = 200

    public var event: Event
    /// The subscription decided about.
    public var originalTransactionId: String
    /// Every transaction of the customer (any order, any product).
    public var transactions: [JWSTransactionDecodedPayload]
    /// The subscription's latest renewal info.
    public var renewalInfo: JWSRenewalInfoDecodedPayload?
    /// App-provided attributes (a JSON object), already checked against the bundle's declaration.
    public var attributes: JSONValue?
    /// Offers Verdict chose for this customer before.
    public var decisions: [PastDecision]
    /// Whether the customer's whole App Store history had been read (`customer.historyComplete`).
    public var historyComplete: Bool

    public init(event: Event, originalTransactionId: String, transactions: [JWSTransactionDecodedPayload],
                renewalInfo: JWSRenewalInfoDecodedPayload?, attributes: JSONValue? = nil, decisions: [PastDecision] = [],
                historyComplete: Bool = true) {
        self.event = event
        self.originalTransactionId = originalTransactionId
        self.transactions = transactions
        self.renewalInfo = renewalInfo
        self.attributes = attributes
        self.decisions = decisions
        self.historyComplete = historyComplete
    }

    /// The typed facts document.
    public var factDocument: FactDocument {
        FactDocument(event: event, subscription: subscription, customer: customer)
    }

    /// The facts document (JSON), typed by ``Facts`` through `FactData(_:)` (no text in between).
    public var document: JSONValue { factDocument.json }

    // MARK: Roots

    /// The `subscription` root.
    public var subscription: FactDocument.Subscription {
        let chain = subscriptionTransactions
        let latest = chain.last
        let renewal = renewalInfo
        let currency = latest?.currency ?? renewal?.currency
        let period = SubscriptionPeriod(chain: chain)
        var facts = FactDocument.Subscription(
            originalTransactionId: originalTransactionId, productId: renewal?.productId ?? latest?.productId,
            group: latest?.subscriptionGroupIdentifier, price: FactDocument.Amount(latest?.price, currency),
            renewalPrice: FactDocument.Amount(renewal?.renewalPrice ?? latest?.price, renewal?.currency ?? currency),
            currency: currency, storefront: latest?.storefront, offer: latest.map(FactDocument.Offer.init),
            autoRenewStatus: renewal?.autoRenewStatus?.known, expirationIntent: renewal?.expirationIntent?.known,
            isInBillingRetry: renewal?.isInBillingRetryPeriod ?? false,
            eligibleWinBackOfferIds: renewal?.eligibleWinBackOfferIds ?? [], paidPeriods: period.paidPeriods)
        if let start = renewal?.recentSubscriptionStartDate ?? Self.continuousStart(chain) {
            facts.recentSubscriptionStartDate = start
            facts.tenure = max(0, event.signedDate.appStoreMilliseconds - start.appStoreMilliseconds)
        }
        facts.seats = period.seats
        facts.amount = period.amount
        facts.renewalSeats = renewal?.renewalSeats.map(Int64.init) ?? period.seats
        facts.renewalAmount = Self.renewalAmount(renewal, period: period, currency: renewal?.currency ?? currency)
        facts.ownership = latest?.factOwnership
        facts.billingPlan = latest?.factBillingPlan
        facts.commitment = period.commitment(renewal: renewal)
        return facts
    }

    /// The `customer` root: the lists (transactions bounded, newest first), lifetime money per
    /// currency, earlier decisions and the attributes.
    public var customer: FactDocument.Customer {
        let newestFirst = transactions.sorted { ($0.purchaseDate ?? .distantPast) > ($1.purchaseDate ?? .distantPast) }
        return FactDocument.Customer(
            transactions: newestFirst.prefix(Self.transactionLimit).map(FactDocument.Transaction.init),
            refunds: newestFirst.compactMap(FactDocument.Refund.init),
            offersRedeemed: newestFirst.compactMap(FactDocument.OfferRedemption.init),
            decisions: decisions, historyComplete: historyComplete,
            lifetimePurchased: LifetimeMoney.purchased(transactions), lifetimeRefunded: LifetimeMoney.refunded(transactions),
            attributes: attributes ?? .object([:]))
    }

    // MARK: Pieces

    /// What the next renewal will charge: the renewal price tiers' sum for a multiseat renewal
    /// (nil when they are incomplete), else the renewal price; without renewal info, what the
    /// current period cost (as `renewalPrice` falls back to `price`).
    static func renewalAmount(_ renewal: JWSRenewalInfoDecodedPayload?, period: SubscriptionPeriod, currency: String?)
        -> FactDocument.Amount? {
        guard let renewal, renewal.isMultiSeat || renewal.renewalPrice != nil else { return period.amount }
        return FactDocument.Amount(renewal.renewalAmount, currency)
    }

    /// The subscription's own transactions, oldest purchase first.
    var subscriptionTransactions: [JWSTransactionDecodedPayload] {
        transactions.filter { $0.originalTransactionId == originalTransactionId }
            .sorted { ($0.purchaseDate ?? .distantPast) < ($1.purchaseDate ?? .distantPast) }
    }

    /// The purchase date of the earliest period in the run of periods that reaches the latest one
    /// without a gap (each starting no later than the previous one expired).
    static func continuousStart(_ chain: [JWSTransactionDecodedPayload]) -> Date? {
        guard var start = chain.last?.purchaseDate else { return nil }
        for (previous, next) in zip(chain.dropLast().reversed(), chain.reversed()) {
            guard let expires = previous.expiresDate, let begins = next.purchaseDate, expires >= begins,
                  let previousStart = previous.purchaseDate
            else { break }
            start = previousStart
        }
        return start
    }
}
