/// The facts a rule can read, declared once: the checker's environment, the Markdown fact
/// reference (``markdownReference()``), the JSON Schema for fixtures (``jsonSchema()``) and the
/// shape ``Facts`` decode into.
///
/// Roots: `event`, `subscription`, `purchase`, `customer` (with `transactions[]`, `refunds[]`,
/// `offersRedeemed[]`, `decisions[]`, the per-currency money tables `lifetimePurchased` and
/// `lifetimeRefunded`, and `attributes`) and `usage`. Customer attributes are declared
/// by the rule file (`attributes:`) and passed to ``init(attributes:)``.
///
/// Presence: a field of an `optional<…>` type may legitimately be absent and must be guarded with
/// `has()`. Any other field is supplied by the service whenever its section applies; if it is
/// absent anyway, reading it is an evaluation error naming it. List fields that are absent read
/// as empty lists, table (map) fields as empty tables.
public struct FactSchema: Sendable, Hashable {
    /// The record of the whole facts document (fields `event`, `subscription`, …).
    public var document: RuleRecord { storage.document }
    /// The declared customer attributes (`customer.attributes.<name>`).
    public var attributes: [RuleField] { storage.attributes }

    /// Both behind one reference: every decision's ``Facts`` carries the schema, and copying
    /// it then costs one retain.
    private let storage: Storage

    private final class Storage: Sendable {
        let document: RuleRecord
        let attributes: [RuleField]
        init(document: RuleRecord, attributes: [RuleField]) {
            self.document = document
            self.attributes = attributes
        }
    }

    /// The standard schema plus the rule file's declared customer attributes.
    public init(attributes: [RuleField] = []) {
        let attributesRecord = RuleRecord(name: "Attributes", fields: attributes)
        let document = RuleRecord(name: "Facts", fields: [
            RuleField("event", .record(Self.event), "The App Store Server Notification being decided."),
            RuleField("subscription", .record(Self.subscription), "The subscription the notification is about (offers)."),
            RuleField("purchase", .record(Self.purchase), "The transaction a consumption request (refund) is about."),
            RuleField("customer", .record(Self.customer(attributes: attributesRecord)), "The customer's history and attributes."),
            RuleField("usage", .record(Self.usage), "App-provided usage of the purchase, for refund decisions."),
        ])
        storage = Storage(document: document, attributes: attributes)
    }

    public static func == (lhs: FactSchema, rhs: FactSchema) -> Bool {
        lhs.storage === rhs.storage || (lhs.document == rhs.document && lhs.attributes == rhs.attributes)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(document)
        hasher.combine(attributes)
    }

    /// The schema without customer attributes.
    public static let standard = FactSchema()

    /// The names of the roots (`event`, `subscription`, …).
    public var rootNames: [String] { document.fields.map(\.name) }

    /// Every record type reachable from the document, each once, in declaration order.
    public var records: [RuleRecord] {
        var seen: Set<String> = []
        var result: [RuleRecord] = []
        func visit(_ type: RuleType) {
            switch type {
            case .record(let record):
                guard seen.insert(record.name).inserted else { return }
                result.append(record)
                record.fields.forEach { visit($0.type) }
            case .list(let inner), .optional(let inner), .map(let inner): visit(inner)
            default: break
            }
        }
        visit(.record(document))
        return result
    }

    /// Every enum type the facts use, each once.
    public var enums: [RuleEnum] {
        var seen: Set<String> = []
        var result: [RuleEnum] = []
        func visit(_ type: RuleType) {
            switch type {
            case .enumeration(let rule) where seen.insert(rule.name).inserted: result.append(rule)
            case .list(let inner), .optional(let inner), .map(let inner): visit(inner)
            default: break
            }
        }
        for record in records { record.fields.forEach { visit($0.type) } }
        return result
    }

    /// The type at a dotted path such as `customer.transactions` or `usage.deliveryStatus`.
    public func type(at path: String) -> RuleType? {
        var current = RuleType.record(document)
        for name in path.split(separator: ".") {
            guard case .record(let record) = current.unwrapped, let field = record.field(named: String(name)) else { return nil }
            current = field.type
        }
        return current
    }

    // MARK: - Records

    static let offerFields: [RuleField] = [
        RuleField("offerType", .optional(.enumeration(.offerType)), "The type of offer applied, if any."),
        RuleField("offerIdentifier", .optional(.string), "The offer's identifier (promotional, win-back and offer codes)."),
        RuleField("offerDiscountType", .optional(.enumeration(.offerDiscountType)), "How the offer discounts: FREE_TRIAL, PAY_AS_YOU_GO, …"),
    ]

    static let event = RuleRecord(name: "Event", fields: [
        RuleField("type", .enumeration(.notificationType), "The notification type (SUBSCRIBED, DID_CHANGE_RENEWAL_STATUS, EXPIRED, CONSUMPTION_REQUEST, …)."),
        RuleField("subtype", .enumeration(.subtype), "The notification subtype; NONE when the notification has none."),
        RuleField("environment", .enumeration(.environment), "SANDBOX or PRODUCTION (or XCODE, LOCAL_TESTING)."),
        RuleField("consumptionRequestReason", .enumeration(.consumptionRequestReason), "Why the customer asked for a refund (CONSUMPTION_REQUEST only)."),
        RuleField("signedDate", .timestamp, "When Apple signed the notification; this is `now`."),
    ])

    static let subscription = RuleRecord(name: "Subscription", fields: [
        RuleField("originalTransactionId", .string, "The subscription's original transaction id (holdout and split unit)."),
        RuleField("productId", .string, "The current product id."),
        RuleField("group", .string, "The subscription group identifier."),
        RuleField("price", .money, "The price of the current period, in the storefront currency."),
        RuleField("renewalPrice", .money, "The price of the next renewal."),
        RuleField("currency", .string, "The ISO 4217 currency of the prices (USD, EUR, …)."),
        RuleField("storefront", .string, "The App Store storefront country (ISO 3166-1 alpha-3, e.g. USA, NOR)."),
    ] + offerFields + [
        RuleField("autoRenewStatus", .enumeration(.autoRenewStatus), "Whether the subscription will renew: ON or OFF."),
        RuleField("expirationIntent", .optional(.enumeration(.expirationIntent)), "Why the subscription expired (expired subscriptions only)."),
        RuleField("isInBillingRetry", .bool, "Whether Apple is retrying a failed renewal charge."),
        RuleField("eligibleWinBackOfferIds", .list(.string), "Win-back offers Apple says the customer is eligible for, in Apple's order."),
        RuleField("recentSubscriptionStartDate", .timestamp, "Start of the most recent continuous subscription period."),
        RuleField("tenure", .duration, "Time subscribed without a gap, up to `now`."),
        RuleField("paidPeriods", .int, "Billing periods paid (free trial periods excluded)."),
    ])

    static let purchase = RuleRecord(name: "Purchase", fields: [
        RuleField("transactionId", .string, "The transaction id the consumption request is about."),
        RuleField("originalTransactionId", .string, "Its original transaction id."),
        RuleField("productId", .string, "The product purchased."),
        RuleField("productType", .enumeration(.productType), "AUTO_RENEWABLE, NON_CONSUMABLE, CONSUMABLE or NON_RENEWING."),
        RuleField("price", .money, "The price paid."),
        RuleField("currency", .string, "The ISO 4217 currency paid in."),
        RuleField("purchaseDate", .timestamp, "When it was bought."),
        RuleField("age", .duration, "Time from purchase to `now`."),
    ] + offerFields)

    static let transaction = RuleRecord(name: "Transaction", fields: [
        RuleField("productId", .string, "The product."),
        RuleField("price", .money, "The price paid."),
        RuleField("currency", .string, "The ISO 4217 currency paid in."),
    ] + offerFields + [
        RuleField("purchaseDate", .timestamp, "When it was bought or renewed."),
        RuleField("revocationDate", .optional(.timestamp), "When Apple refunded or revoked it, if it did."),
        RuleField("revocationType", .optional(.enumeration(.revocationType)), "REFUND_FULL, REFUND_PRORATED or FAMILY_REVOKE, if revoked."),
    ])

    static let refund = RuleRecord(name: "Refund", fields: [
        RuleField("productId", .string, "The product refunded."),
        RuleField("price", .money, "The price of the refunded transaction."),
        RuleField("date", .timestamp, "When the refund happened."),
        RuleField("revocationType", .enumeration(.revocationType), "REFUND_FULL or REFUND_PRORATED."),
    ])

    static let offerRedemption = RuleRecord(name: "OfferRedemption", fields: [
        RuleField("productId", .string, "The product the offer applied to."),
        RuleField("offerType", .enumeration(.offerType), "INTRODUCTORY, PROMOTIONAL, OFFER_CODE or WIN_BACK."),
        RuleField("offerIdentifier", .optional(.string), "The offer's identifier (none for introductory offers)."),
        RuleField("offerDiscountType", .optional(.enumeration(.offerDiscountType)), "FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT or ONE_TIME."),
        RuleField("date", .timestamp, "When the offer was redeemed."),
    ])

    static let decision = RuleRecord(name: "PastDecision", fields: [
        RuleField("offerId", .string, "The catalog offer Verdict chose."),
        RuleField("ruleId", .string, "The rule that chose it."),
        RuleField("date", .timestamp, "When Verdict decided."),
    ])

    static func customer(attributes: RuleRecord) -> RuleRecord {
        RuleRecord(name: "Customer", fields: [
            RuleField("transactions", .list(.record(transaction)), "The customer's transactions, newest first (bounded by the service)."),
            RuleField("refunds", .list(.record(refund)), "Refunds the customer received."),
            RuleField("offersRedeemed", .list(.record(offerRedemption)), "Offers the customer redeemed."),
            RuleField("decisions", .list(.record(decision)), "Offers Verdict itself chose for this customer before."),
            RuleField("historyComplete", .bool, "Whether the customer's whole App Store transaction history had been read "
                + "when deciding. False when a first decision could not wait longer for it (the App Store Server API "
                + "unavailable, refusing or slow) or without an In-App Purchase key: the lists and totals then hold only "
                + "what Verdict had stored."),
            RuleField("lifetimePurchased", .map(.money), "Money the customer paid, per ISO 4217 currency (never added across currencies): "
                + lifetimeMoneyUsage("lifetimePurchased")),
            RuleField("lifetimeRefunded", .map(.money), "Money the customer was refunded, per ISO 4217 currency (never added across currencies): "
                + lifetimeMoneyUsage("lifetimeRefunded")),
            RuleField("attributes", .record(attributes), "App-provided attributes declared in the rule file (`attributes:`)."),
        ])
    }

    /// How to read a per-currency money table such as `customer.lifetimeRefunded`.
    static func lifetimeMoneyUsage(_ name: String) -> String {
        "index it by currency, `customer.\(name)['USD']` or `customer.\(name)[purchase.currency]`. "
            + "A currency without an entry is an evaluation error (the rule is skipped), so test "
            + "`'USD' in customer.\(name) && …` first. Not supplied: no entries."
    }

    static let usage = RuleRecord(name: "Usage", fields: [
        RuleField("deliveryStatus", .optional(.enumeration(.deliveryStatus)), "Whether the app delivered the purchase (DELIVERED, UNDELIVERED_…)."),
        RuleField("consumptionPercentage", .optional(.int), "Percent of the purchase consumed, 0–100 (Apple receives it ×1000, in milliunits)."),
        RuleField("sampleContentProvided", .optional(.bool), "Whether the app offered a free sample or trial before purchase."),
        RuleField("consented", .optional(.bool), "Whether the customer consented to sharing consumption data."),
        RuleField("sessionsSincePurchase", .optional(.int), "App sessions since the purchase."),
    ])
}
