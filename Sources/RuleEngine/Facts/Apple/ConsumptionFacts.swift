import AppStoreServer

/// Builds the facts document a refund decision is made on (the `event`, `purchase`, `customer`
/// and `usage` roots, ``FactDocument``) from what Apple signed — the `CONSUMPTION_REQUEST`, the
/// purchase it is about and the customer's stored transactions — and what the app reported (usage
/// facts, consent). Pure: no I/O. Money is never added across currencies.
public struct ConsumptionFacts: Sendable {
    /// App-reported usage of the purchase (`usage.*`); nil values are left out of the facts.
    public typealias Usage = FactDocument.Usage

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

    /// The typed facts document.
    public var factDocument: FactDocument {
        var event = event
        event.consumptionRequestReason = reason?.known
        return FactDocument(event: event, purchase: purchaseFacts, customer: customerFacts, usage: usage)
    }

    /// The facts document (JSON), typed by ``Facts`` through `FactData(_:)` (no text in between).
    public var document: JSONValue { factDocument.json }

    var purchaseFacts: FactDocument.Purchase {
        FactDocument.Purchase(
            transactionId: purchase.transactionId, originalTransactionId: purchase.originalTransactionId,
            productId: purchase.productId, productType: purchase.type?.known,
            price: FactDocument.Amount(purchase.price, purchase.currency), currency: purchase.currency,
            purchaseDate: purchase.purchaseDate,
            age: purchase.purchaseDate.map { max(0, event.signedDate.appStoreMilliseconds - $0.appStoreMilliseconds) },
            offer: FactDocument.Offer(purchase), seats: purchase.factSeats,
            amount: FactDocument.Amount(purchase.chargedAmount, purchase.currency), ownership: purchase.factOwnership)
    }

    /// The customer's history, as the offer flow reads it (lists and lifetime money per currency).
    var customerFacts: FactDocument.Customer {
        SubscriptionFacts(
            event: event, originalTransactionId: purchase.originalTransactionId ?? "", transactions: allTransactions,
            renewalInfo: nil, attributes: attributes, historyComplete: historyComplete
        ).customer
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
