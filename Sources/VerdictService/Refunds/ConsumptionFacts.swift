import AppStoreServer
import Foundation

/// Builds the facts document a refund decision is made on (the `event`, `purchase`, `customer`
/// and `usage` roots of the rule engine's fact reference) from what Apple signed — the
/// `CONSUMPTION_REQUEST`, the purchase it is about and the customer's stored transactions — and
/// what the app reported (usage facts, consent). Pure: no I/O.
/// Money is never added across currencies (``LifetimeMoney``).
public struct ConsumptionFacts: Sendable {
    /// The notification being decided (`event.consumptionRequestReason` is Apple's reason).
    public var event: SubscriptionFacts.Event
    public var reason: ConsumptionRequestReason?
    /// The purchase the customer asked to have refunded.
    public var purchase: JWSTransactionDecodedPayload
    /// Every stored transaction of the customer (the purchase's own chain and, through the app
    /// account token, the customer's other purchases), any order.
    public var transactions: [JWSTransactionDecodedPayload]
    /// What the app reported about the purchase.
    public var usage: Usage
    /// App-provided customer attributes (a JSON object).
    public var attributes: JSONValue?

    /// App-reported usage of the purchase (`usage.*`); nil values are left out of the facts.
    public struct Usage: Sendable, Equatable {
        public var deliveryStatus: DeliveryStatus?
        /// Apple's milliunits (0–100000); the facts show whole percent (rules read 0–100).
        public var consumptionPercentage: Int64?
        public var sampleContentProvided: Bool?
        public var sessionsSincePurchase: Int64?
        /// Whether Verdict may share consumption data (recorded or assumed consent).
        public var consented: Bool

        public init(deliveryStatus: DeliveryStatus? = nil, consumptionPercentage: Int64? = nil,
                    sampleContentProvided: Bool? = nil, sessionsSincePurchase: Int64? = nil, consented: Bool) {
            self.deliveryStatus = deliveryStatus
            self.consumptionPercentage = consumptionPercentage
            self.sampleContentProvided = sampleContentProvided
            self.sessionsSincePurchase = sessionsSincePurchase
            self.consented = consented
        }
    }

    /// Whether the customer's whole App Store history had been read (`customer.historyComplete`).
    public var historyComplete: Bool

    public init(event: SubscriptionFacts.Event, reason: ConsumptionRequestReason?, purchase: JWSTransactionDecodedPayload,
                transactions: [JWSTransactionDecodedPayload], usage: Usage, attributes: JSONValue? = nil,
                historyComplete: Bool = true) {
        self.event = event
        self.reason = reason
        self.purchase = purchase
        self.transactions = transactions
        self.usage = usage
        self.attributes = attributes
        self.historyComplete = historyComplete
    }

    /// The facts document (JSON), typed by `RuleEngine.Facts` (through `FactData(_:)`, no text in between).
    public var document: JSONValue {
        .object(["event": eventFacts, "purchase": purchaseFacts, "customer": customerFacts, "usage": usageFacts])
    }

    var eventFacts: JSONValue {
        guard case .object(var object) = SubscriptionFacts.eventFacts(event) else { return .object([:]) }
        object["consumptionRequestReason"] = SubscriptionFacts.known(reason)
        return .object(object)
    }

    var purchaseFacts: JSONValue {
        var object: [String: JSONValue] = [:]
        object["transactionId"] = purchase.transactionId.map(JSONValue.string)
        object["originalTransactionId"] = purchase.originalTransactionId.map(JSONValue.string)
        object["productId"] = purchase.productId.map(JSONValue.string)
        object["productType"] = SubscriptionFacts.known(purchase.type)
        object["price"] = SubscriptionFacts.money(purchase.price, purchase.currency)
        object["currency"] = purchase.currency.map(JSONValue.string)
        if let bought = purchase.purchaseDate {
            object["purchaseDate"] = .integer(bought.appStoreMilliseconds)
            object["age"] = .integer(max(0, event.signedDate.appStoreMilliseconds - bought.appStoreMilliseconds))
        }
        SubscriptionFacts.addOffer(purchase.offerType, purchase.offerIdentifier, purchase.offerDiscountType, to: &object)
        return .object(object)
    }

    /// The customer's history, as the offer flow reads it (lists and lifetime money per currency).
    var customerFacts: JSONValue {
        SubscriptionFacts(
            event: event, originalTransactionId: purchase.originalTransactionId ?? "", transactions: allTransactions,
            renewalInfo: nil, attributes: attributes, historyComplete: historyComplete
        ).customerFacts
    }

    var usageFacts: JSONValue {
        var object: [String: JSONValue] = ["consented": .bool(usage.consented)]
        object["deliveryStatus"] = SubscriptionFacts.known(usage.deliveryStatus)
        object["consumptionPercentage"] = usage.consumptionPercentage.map { .integer($0 / 1000) }
        object["sampleContentProvided"] = usage.sampleContentProvided.map(JSONValue.bool)
        object["sessionsSincePurchase"] = usage.sessionsSincePurchase.map(JSONValue.integer)
        return .object(object)
    }

    /// The stored transactions with the purchase itself, each id once (the purchase's own copy wins).
    var allTransactions: [JWSTransactionDecodedPayload] {
        var seen: Set<String> = []
        var result: [JWSTransactionDecodedPayload] = []
        for transaction in [purchase] + transactions {
            guard let id = transaction.transactionId else { continue }
            if seen.insert(id).inserted { result.append(transaction) }
        }
        return result
    }
}
