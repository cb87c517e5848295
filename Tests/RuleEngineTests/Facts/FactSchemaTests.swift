import AppStoreServer
import Foundation
@testable import RuleEngine
import Testing

@Suite("Fact schema")
struct FactSchemaTests {
    @Test("Apple enums get readable names mapped from their wire values")
    func enumMapping() {
        #expect(RuleEnum.offerType.cases.map(\.name) == ["INTRODUCTORY", "PROMOTIONAL", "OFFER_CODE", "WIN_BACK", "RETENTION"])
        #expect(RuleEnum.offerType.cases.map(\.wireValue) == ["1", "2", "3", "4", "5"])
        #expect(RuleEnum.productType.ordinal(decoding: "Auto-Renewable Subscription") == RuleEnum.productType.ordinal(named: "AUTO_RENEWABLE"))
        #expect(RuleEnum.productType.caseNames == ["AUTO_RENEWABLE", "NON_CONSUMABLE", "CONSUMABLE", "NON_RENEWING"])
        #expect(RuleEnum.environment.ordinal(decoding: "Production") == RuleEnum.environment.ordinal(named: "PRODUCTION"))
        #expect(RuleEnum.subtype.caseNames.last == "NONE")
        #expect(RuleEnum.notificationType.caseNames.contains("CONSUMPTION_REQUEST"))
        #expect(RuleEnum.expirationIntent.caseName(0) == "CUSTOMER_CANCELLED")
        #expect(RuleEnum.expirationIntent.caseName(RuleEnum.unrecognizedOrdinal) == "UNRECOGNIZED")
        #expect(RuleEnum.derivedName("Non-Renewing Subscription") == "NON_RENEWING_SUBSCRIPTION")
    }

    @Test("Apple values convert to and from the names rules use")
    func ruleNames() {
        #expect(OfferType.promotionalOffer.ruleName == "PROMOTIONAL")
        #expect(OfferType(ruleName: "WIN_BACK") == .winBackOffer)
        #expect(ProductType(ruleName: "AUTO_RENEWABLE") == .autoRenewable)
        #expect(Subtype.autoRenewDisabled.ruleName == "AUTO_RENEW_DISABLED")
        #expect(OfferType(rawValue: 9).ruleName == "UNRECOGNIZED")
        #expect(OfferType(ruleName: "NOT_AN_OFFER") == nil)
        #expect(OfferType.winBackOffer.known == .winBackOffer && OfferType(rawValue: 9).known == nil)
    }

    @Test("the schema declares documented facts, and declared attributes")
    func fields() {
        let schema = FactSchema(attributes: [RuleField("country", .string, "ISO country")])
        #expect(schema.rootNames == ["event", "subscription", "purchase", "customer", "usage"])
        for path in ["event.consumptionRequestReason", "subscription.eligibleWinBackOfferIds", "subscription.recentSubscriptionStartDate",
                     "purchase.age", "customer.transactions", "customer.decisions", "customer.attributes.country", "usage.consented"] {
            #expect(schema.type(at: path) != nil, "\(path)")
        }
        #expect(schema.type(at: "usage.consumptionPercentage") == .optional(.int))
        #expect(schema.type(at: "customer.transactions") == .list(.record(FactDocument.Transaction.ruleRecord())))
        #expect(FactSchema.standard.type(at: "customer.attributes.country") == nil)
    }

    @Test("the Markdown reference lists every field and the enum mapping")
    func markdown() {
        let text = FactSchema(attributes: [RuleField("country", .string, "ISO country")]).markdownReference()
        #expect(text.contains("| `consumptionPercentage` | `int` | optional |"))
        #expect(text.contains("| `tenure` | `duration` | always |"))
        #expect(text.contains("| `country` | `string` | always | ISO country |"))
        #expect(text.contains("`WIN_BACK` (Apple: `4`)"))
        #expect(text.contains("`AUTO_RENEWABLE` (Apple: `Auto-Renewable Subscription`)"))
        #expect(text.contains("`NONE` (Apple: no value)"))
    }

    @Test("the JSON Schema is valid JSON and describes records and enums")
    func jsonSchema() throws {
        let text = FactSchema.standard.jsonSchema()
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let defs = object?["$defs"] as? [String: Any]
        #expect(defs?.keys.sorted().contains("Transaction") == true)
        let event = (defs?["Event"] as? [String: Any])?["properties"] as? [String: Any]
        let type = event?["type"] as? [String: Any]
        #expect((type?["enum"] as? [String])?.contains("EXPIRED") == true)
    }
}
