import AppStoreServer
import Foundation
@testable import RuleEngine
import Testing
@testable import VerdictService
import VerdictStorage

/// The refund facts document and the body built from a decision: lifetime money per currency
/// (never added across currencies, prorated refunds counted by their share), the purchase's age,
/// usage in whole percent, and each body field from the rule, else the app, else the default.
@Suite struct ConsumptionFactsTests {
    static func purchase(_ id: String, _ product: String, _ type: ProductType, price: Int64, currency: String, purchased: String,
                         refunded: String? = nil, revocation: RevocationType? = nil, share: Int32? = nil) -> JWSTransactionDecodedPayload {
        var transaction = JWSTransactionDecodedPayload()
        transaction.transactionId = id
        transaction.originalTransactionId = id
        transaction.productId = product
        transaction.type = type
        transaction.price = price
        transaction.currency = currency
        transaction.purchaseDate = SubscriptionFactsTests.date(purchased)
        transaction.revocationDate = refunded.map(SubscriptionFactsTests.date)
        transaction.revocationType = revocation
        transaction.revocationPercentage = share
        return transaction
    }

    static let asked = purchase("30", "com.lumen.credits.100", .consumable, price: 4_990, currency: "EUR", purchased: "2026-12-14T00:00:00Z")

    static func facts(usage: ConsumptionFacts.Usage = .init(consented: true)) -> ConsumptionFacts {
        ConsumptionFacts(
            event: .init(type: .consumptionRequest, subtype: nil, environment: .production,
                         signedDate: SubscriptionFactsTests.date("2026-12-15T12:00:00Z")),
            reason: .unsatisfiedWithPurchase, purchase: asked,
            transactions: [
                asked,
                purchase("10", "com.lumen.filters.vintage", .nonConsumable, price: 2_990, currency: "USD", purchased: "2025-03-01T00:00:00Z",
                         refunded: "2025-04-02T10:00:00Z", revocation: .refundFull),
                purchase("11", "com.lumen.credits.100", .consumable, price: 9_990, currency: "USD", purchased: "2026-05-01T00:00:00Z",
                         refunded: "2026-05-03T10:00:00Z", revocation: .refundProrated, share: 25_000),
                purchase("12", "com.lumen.credits.100", .consumable, price: 4_990, currency: "EUR", purchased: "2026-06-01T00:00:00Z"),
            ],
            usage: usage)
    }

    static func money(_ milliunits: Int64, _ currency: String) -> JSONValue {
        .object(["milliunits": .integer(milliunits), "currency": .string(currency)])
    }

    @Test func lifetimeMoneyIsKeptPerCurrency() throws {
        let customer = try #require(Self.facts().document.objectValue?["customer"]?.objectValue)
        #expect(customer["lifetimePurchased"] == .object(["USD": Self.money(12_980, "USD"), "EUR": Self.money(9_980, "EUR")]))
        // 2.99 in full and 25 % of 9.99 (2.4975 → 2.497 in milliunits).
        #expect(customer["lifetimeRefunded"] == .object(["USD": Self.money(2_990 + 2_497, "USD")]))
        #expect(customer["refunds"]?.arrayValue?.count == 2)
    }

    @Test func lifetimeMoneySaturatesInsteadOfOverflowing() throws {
        // A signed price may be any Int64: a prorated share of the largest, and a sum past it.
        let huge = [
            Self.purchase("1", "p", .consumable, price: .max, currency: "USD", purchased: "2026-01-01T00:00:00Z",
                          refunded: "2026-01-02T00:00:00Z", revocation: .refundProrated, share: 99_999),
            Self.purchase("2", "p", .consumable, price: .max, currency: "USD", purchased: "2026-01-01T00:00:00Z",
                          refunded: "2026-01-02T00:00:00Z", revocation: .refundFull),
        ]
        #expect(LifetimeMoney.purchased(huge) == ["USD": FactDocument.Amount(milliunits: .max, currency: "USD")])
        #expect(LifetimeMoney.refunded(huge) == ["USD": FactDocument.Amount(milliunits: .max, currency: "USD")])
        #expect(LifetimeMoney.refund(huge[0])?.milliunits == Int64.max / 100_000 * 99_999 + Int64.max % 100_000 * 99_999 / 100_000)
    }

    @Test func purchaseEventAndUsageFacts() throws {
        let usage = ConsumptionFacts.Usage(deliveryStatus: .delivered, consumptionPercentage: 35_500, sampleContentProvided: nil,
                                           sessionsSincePurchase: 4, consented: true)
        let document = try #require(Self.facts(usage: usage).document.objectValue)
        #expect(document["event"]?.objectValue?["consumptionRequestReason"] == .string("UNSATISFIED_WITH_PURCHASE"))
        #expect(document["purchase"]?.objectValue?["age"] == .integer(36 * 3_600_000))
        #expect(document["purchase"]?.objectValue?["productType"] == .string("Consumable"))
        let facts = try #require(document["usage"]?.objectValue)
        #expect(facts["consumptionPercentage"] == .integer(35))
        #expect(facts["sampleContentProvided"] == nil)
        #expect(facts["consented"] == .bool(true))
        // The shipped bundle types and decides the document: 35 % used credits → prorated.
        let bundle = try RuleBundle.load(directory: ServiceHarness.rulesDirectory)
        let decision = bundle.decide(try Facts(json: try JSONEncoder().encode(JSONValue.object(document)), schema: bundle.schema))
        #expect(decision.rule?.id == "credits-partly-used")
        #expect(decision.refund?.consumptionPercentage == 35_000)
    }

    @Test func bodyFieldsComeFromTheRuleThenTheAppThenDefaults() throws {
        let reported = TransactionFactsRecord(transactionId: "30", deliveryStatus: nil, consumptionPercentage: 20_000,
                                              sampleContentProvided: true, sessionsSincePurchase: nil, updatedAt: 0)
        let response = try JSONDecoder().decode(Decision.RefundResponse.self, from: Data(#"{"refundPreference":"DECLINE"}"#.utf8))
        let body = ConsumptionBody(response: response, reported: reported, productType: .consumable)
        #expect(body.request == ConsumptionRequest(customerConsented: true, consumptionPercentage: 20_000, deliveryStatus: .delivered,
                                                   refundPreference: .decline, sampleContentProvided: true))
        #expect(body.explanation.sources == ["refundPreference": "rule", "consumptionPercentage": "app",
                                             "deliveryStatus": "default", "sampleContentProvided": "app"])
        #expect(body.explanation.corrections.isEmpty)
        #expect(String(decoding: try body.encoded(), as: UTF8.self)
            == #"{"consumptionPercentage":20000,"customerConsented":true,"deliveryStatus":"DELIVERED","refundPreference":"DECLINE","sampleContentProvided":true}"#)
    }

    @Test func bodyIsConformedToApplesRules() throws {
        let reported = TransactionFactsRecord(transactionId: "30", deliveryStatus: "UNDELIVERED_QUALITY_ISSUE", consumptionPercentage: 40_000,
                                              sampleContentProvided: nil, sessionsSincePurchase: nil, updatedAt: 0)
        let body = ConsumptionBody(response: nil, reported: reported, productType: .autoRenewable)
        #expect(body.request.consumptionPercentage == nil)
        #expect(body.explanation.corrections.map(\.field) == ["consumptionPercentage"])
        let consumable = ConsumptionBody(response: nil, reported: reported, productType: .consumable)
        #expect(consumable.request.consumptionPercentage == 0)
        #expect(consumable.request.deliveryStatus == .undeliveredQualityIssue)
    }
}
