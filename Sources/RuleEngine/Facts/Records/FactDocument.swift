import AppStoreServer

/// The facts document one decision is made on, typed: the roots `event`, `subscription` (offers),
/// `purchase` and `usage` (refunds) and `customer`. Each record (``Event``, ``Subscription``,
/// ``Purchase``, ``Customer`` with ``Transaction``, ``Refund``, ``OfferRedemption`` and
/// ``PastDecision``, ``Usage``) declares its fields once (``FactRecord/fields``): ``FactSchema`` is
/// built from those declarations, and ``FactRecord/json`` writes a document from them, so a fact
/// name is written in exactly one place. The builders from Apple's payloads are
/// ``SubscriptionFacts`` and ``ConsumptionFacts``.
///
/// The JSON written is the service's facts document: money as `{"milliunits", "currency"}`,
/// instants and durations as milliseconds, Apple's enumerations as their wire values.
public struct FactDocument: Sendable {
    public var event: Event
    public var subscription: Subscription?
    public var purchase: Purchase?
    public var customer: Customer?
    public var usage: Usage?

    public init(event: Event, subscription: Subscription? = nil, purchase: Purchase? = nil, customer: Customer? = nil,
                usage: Usage? = nil) {
        self.event = event
        self.subscription = subscription
        self.purchase = purchase
        self.customer = customer
        self.usage = usage
    }

    /// The `event` root; it comes first, so its cells come first in every schema.
    static let eventField = FactField<Self>.record("event", \.event, "The App Store Server Notification being decided.")

    /// An amount of one currency as Apple reports prices: milliunits and the ISO 4217 code it
    /// gave (checked only when the facts are typed, so an odd code is an explained error).
    public struct Amount: Sendable, Hashable {
        public var milliunits: Int64
        public var currency: String

        public init(milliunits: Int64, currency: String) {
            self.milliunits = milliunits
            self.currency = currency
        }

        /// `milliunits` in `currency`, when both are known.
        public init?(_ milliunits: Int64?, _ currency: String?) {
            guard let milliunits, let currency else { return nil }
            self.init(milliunits: milliunits, currency: currency)
        }

        var json: JSONValue { .object(["milliunits": .integer(milliunits), "currency": .string(currency)]) }
    }

    /// The offer a transaction or subscription period was bought with (the offer fields of
    /// ``Subscription``, ``Purchase`` and ``Transaction``).
    public struct Offer: Sendable, Hashable {
        public var type: OfferType?
        public var identifier: String?
        public var discountType: OfferDiscountType?

        public init(type: OfferType?, identifier: String?, discountType: OfferDiscountType?) {
            self.type = type
            self.identifier = identifier
            self.discountType = discountType
        }

        /// The three fields, for a record that carries an offer at `offer`.
        static func fields<Record>(_ offer: @escaping @Sendable (Record) -> Offer?) -> [FactField<Record>] {
            [
                .enumeration("offerType", { offer($0)?.type }, "The type of offer applied, if any.").optional,
                .string("offerIdentifier", { offer($0)?.identifier },
                        "The offer's identifier (promotional, win-back and offer codes).").optional,
                .enumeration("offerDiscountType", { offer($0)?.discountType },
                             "How the offer discounts: FREE_TRIAL, PAY_AS_YOU_GO, …").optional,
            ]
        }
    }
}

extension FactDocument: FactRecord {
    public static let recordName = "Facts"
    public static let fields: [FactField<Self>] = [
        eventField,
        .record("subscription", \.subscription, "The subscription the notification is about (offers)."),
        .record("purchase", \.purchase, "The transaction a consumption request (refund) is about."),
        .record("customer", \.customer, "The customer's history and attributes."),
        .record("usage", \.usage, "App-provided usage of the purchase, for refund decisions."),
    ]
}
