import AppStoreServer
import Foundation
import VerdictStorage

/// Builds the facts document an offer decision is made on (the `event`, `subscription` and
/// `customer` roots of the rule engine's fact reference) from what Apple signed: the notification,
/// the customer's transactions and the subscription's renewal info. Pure: no I/O.
///
/// Enumerations are written as Apple's wire values (the rule engine accepts either); values newer
/// than this code are left out, so a rule reading one fails with an explained error instead of
/// deciding on a guess. Prices are milliunits with their currency.
public struct SubscriptionFacts: Sendable {
    /// The notification being decided.
    public struct Event: Sendable {
        public var type: NotificationTypeV2
        public var subtype: Subtype?
        public var environment: AppStoreEnvironment?
        public var signedDate: Date

        public init(type: NotificationTypeV2, subtype: Subtype?, environment: AppStoreEnvironment?, signedDate: Date) {
            self.type = type
            self.subtype = subtype
            self.environment = environment
            self.signedDate = signedDate
        }

        /// The event of a stored notification.
        public init(_ stored: NewNotification) {
            self.init(
                type: NotificationTypeV2(rawValue: stored.notificationType), subtype: stored.subtype.map(Subtype.init(rawValue:)),
                environment: stored.environment.map(AppStoreEnvironment.init(rawValue:)),
                signedDate: Date(appStoreMilliseconds: stored.signedDate))
        }
    }

    /// An offer Verdict chose for this customer before (`customer.decisions[]`).
    public struct PastDecision: Sendable {
        public var offerId: String
        public var ruleId: String
        public var date: Date

        public init(offerId: String, ruleId: String, date: Date) {
            self.offerId = offerId
            self.ruleId = ruleId
            self.date = date
        }
    }

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

    /// The facts document (JSON), typed by `RuleEngine.Facts` (through `FactData(_:)`, no text in between).
    public var document: JSONValue {
        .object(["event": eventFacts, "subscription": subscriptionFacts, "customer": customerFacts])
    }

    // MARK: Roots

    var eventFacts: JSONValue { Self.eventFacts(event) }

    /// The `event` root for `event`.
    static func eventFacts(_ event: Event) -> JSONValue {
        var object: [String: JSONValue] = [
            "type": .string(event.type.rawValue),
            "subtype": .string(event.subtype?.rawValue ?? "NONE"),
            "signedDate": .integer(event.signedDate.appStoreMilliseconds),
        ]
        object["environment"] = event.environment.map { .string($0.rawValue) }
        return .object(object)
    }

    var subscriptionFacts: JSONValue {
        let chain = subscriptionTransactions
        let latest = chain.last
        let renewal = renewalInfo
        var object: [String: JSONValue] = ["originalTransactionId": .string(originalTransactionId)]
        object["productId"] = (renewal?.productId ?? latest?.productId).map(JSONValue.string)
        object["group"] = latest?.subscriptionGroupIdentifier.map(JSONValue.string)
        let currency = latest?.currency ?? renewal?.currency
        object["currency"] = currency.map(JSONValue.string)
        object["price"] = Self.money(latest?.price, currency)
        object["renewalPrice"] = Self.money(renewal?.renewalPrice ?? latest?.price, renewal?.currency ?? currency)
        object["storefront"] = latest?.storefront.map(JSONValue.string)
        if let latest { Self.addOffer(latest.offerType, latest.offerIdentifier, latest.offerDiscountType, to: &object) }
        object["autoRenewStatus"] = Self.known(renewal?.autoRenewStatus)
        object["expirationIntent"] = Self.known(renewal?.expirationIntent)
        object["isInBillingRetry"] = .bool(renewal?.isInBillingRetryPeriod ?? false)
        object["eligibleWinBackOfferIds"] = .array((renewal?.eligibleWinBackOfferIds ?? []).map(JSONValue.string))
        let start = renewal?.recentSubscriptionStartDate ?? Self.continuousStart(chain)
        if let start {
            object["recentSubscriptionStartDate"] = .integer(start.appStoreMilliseconds)
            object["tenure"] = .integer(max(0, event.signedDate.appStoreMilliseconds - start.appStoreMilliseconds))
        }
        object["paidPeriods"] = .integer(Int64(chain.filter(Self.isPaid).count))
        return .object(object)
    }

    var customerFacts: JSONValue {
        let newestFirst = transactions.sorted { ($0.purchaseDate ?? .distantPast) > ($1.purchaseDate ?? .distantPast) }
        var listed: [JSONValue] = []
        var refunds: [JSONValue] = []
        var redemptions: [JSONValue] = []
        for transaction in newestFirst {
            if listed.count < Self.transactionLimit { listed.append(Self.transactionFacts(transaction)) }
            if let refund = Self.refundFacts(transaction) { refunds.append(refund) }
            if let redemption = Self.redemptionFacts(transaction) { redemptions.append(redemption) }
        }
        return .object([
            "transactions": .array(listed), "refunds": .array(refunds), "offersRedeemed": .array(redemptions),
            "decisions": .array(decisions.map { decision in
                .object([
                    "offerId": .string(decision.offerId), "ruleId": .string(decision.ruleId),
                    "date": .integer(decision.date.appStoreMilliseconds),
                ])
            }),
            "attributes": attributes ?? .object([:]),
            "lifetimePurchased": LifetimeMoney.purchased(transactions),
            "lifetimeRefunded": LifetimeMoney.refunded(transactions),
            "historyComplete": .bool(historyComplete),
        ])
    }

    // MARK: Pieces

    /// The subscription's own transactions, oldest purchase first.
    var subscriptionTransactions: [JWSTransactionDecodedPayload] {
        transactions.filter { $0.originalTransactionId == originalTransactionId }
            .sorted { ($0.purchaseDate ?? .distantPast) < ($1.purchaseDate ?? .distantPast) }
    }

    /// A period is paid unless it was free (a free trial, or a price of zero) or refunded.
    static func isPaid(_ transaction: JWSTransactionDecodedPayload) -> Bool {
        if transaction.offerDiscountType == .freeTrial { return false }
        if let price = transaction.price, price <= 0 { return false }
        return transaction.revocationDate == nil
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

    static func transactionFacts(_ transaction: JWSTransactionDecodedPayload) -> JSONValue {
        var object: [String: JSONValue] = [:]
        object["productId"] = transaction.productId.map(JSONValue.string)
        object["price"] = money(transaction.price, transaction.currency)
        object["currency"] = transaction.currency.map(JSONValue.string)
        addOffer(transaction.offerType, transaction.offerIdentifier, transaction.offerDiscountType, to: &object)
        object["purchaseDate"] = transaction.purchaseDate.map { .integer($0.appStoreMilliseconds) }
        object["revocationDate"] = transaction.revocationDate.map { .integer($0.appStoreMilliseconds) }
        object["revocationType"] = transaction.revocationDate == nil ? nil : known(revocationType(transaction))
        return .object(object)
    }

    /// A refunded transaction as a `Refund` (family-sharing revocations are not refunds).
    static func refundFacts(_ transaction: JWSTransactionDecodedPayload) -> JSONValue? {
        guard let date = transaction.revocationDate, let type = revocationType(transaction),
              type == .refundFull || type == .refundProrated
        else { return nil }
        var object: [String: JSONValue] = ["date": .integer(date.appStoreMilliseconds), "revocationType": .string(type.rawValue)]
        object["productId"] = transaction.productId.map(JSONValue.string)
        object["price"] = money(transaction.price, transaction.currency)
        return .object(object)
    }

    /// A transaction bought with an offer, as an `OfferRedemption`.
    static func redemptionFacts(_ transaction: JWSTransactionDecodedPayload) -> JSONValue? {
        guard let offerType = transaction.offerType, offerType.isKnown else { return nil }
        var object: [String: JSONValue] = [:]
        object["productId"] = transaction.productId.map(JSONValue.string)
        addOffer(offerType, transaction.offerIdentifier, transaction.offerDiscountType, to: &object)
        object["date"] = transaction.purchaseDate.map { .integer($0.appStoreMilliseconds) }
        return .object(object)
    }

    /// Apple's `revocationType`; for older payloads without one, a full refund (or a family
    /// revocation for a family-shared purchase).
    static func revocationType(_ transaction: JWSTransactionDecodedPayload) -> RevocationType? {
        if let type = transaction.revocationType { return type.isKnown ? type : nil }
        guard transaction.revocationDate != nil else { return nil }
        return transaction.inAppOwnershipType == .familyShared ? .familyRevoke : .refundFull
    }

    static func addOffer(_ type: OfferType?, _ identifier: String?, _ discount: OfferDiscountType?, to object: inout [String: JSONValue]) {
        object["offerType"] = known(type)
        object["offerIdentifier"] = type == nil ? nil : identifier.map(JSONValue.string)
        object["offerDiscountType"] = known(discount)
    }

    static func money(_ milliunits: Int64?, _ currency: String?) -> JSONValue? {
        guard let milliunits, let currency else { return nil }
        return .object(["milliunits": .integer(milliunits), "currency": .string(currency)])
    }

    /// A documented enumeration value as Apple's wire value; nil for nil or an unknown value.
    static func known<T: AppleEnumeration>(_ value: T?) -> JSONValue? {
        guard let value, value.isKnown else { return nil }
        if let number = value.rawValue as? Int32 { return .integer(Int64(number)) }
        return .string(value.rawValue.description)
    }
}
