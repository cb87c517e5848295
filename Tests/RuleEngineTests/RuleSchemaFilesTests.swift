import Foundation
import Testing

@testable import RuleEngine

/// The JSON Schemas in `Rules/schema/` describe exactly the keys the loader accepts: a key the
/// loader learns without the schema (or the reverse) fails here, so editors never complete a
/// key the checker refuses or flag one it accepts.
@Suite("Rules/schema: the JSON Schemas match the loader")
struct RuleSchemaFilesTests {
    private typealias Object = [String: Any]

    private func schema(_ name: String) throws -> Object {
        let path = ShippedBundleTests.rulesDirectory + "/schema/" + name
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? Object, "\(name) is not a JSON object")
        #expect(object["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        return object
    }

    /// The object at `path` (keys separated by `/`) inside `root`.
    private func node(_ root: Object, _ path: String) throws -> Object {
        var current = root
        for key in path.split(separator: "/") {
            current = try #require(current[String(key)] as? Object, "no object at \(path)")
        }
        return current
    }

    private func keys(_ root: Object, _ path: String) throws -> Set<String> {
        Set(try node(root, path + "/properties").keys)
    }

    private func enumValues(_ root: Object, _ path: String) throws -> Set<String> {
        Set(try #require(try node(root, path)["enum"] as? [Any], "no enum at \(path)").compactMap { $0 as? String })
    }

    @Test("rules.schema.json: top-level, section, rule, response and holdout keys")
    func rulesKeys() throws {
        let rules = try schema("rules.schema.json")
        #expect(try keys(rules, "") == Set(RuleFileReader.topLevelKeys))
        #expect(rules["required"] as? [String] == ["schema"])
        #expect(try keys(rules, "properties/offers") == Set(RuleSectionReader.offersKeys))
        #expect(try keys(rules, "properties/refunds") == Set(RuleSectionReader.refundsKeys))
        #expect(try keys(rules, "$defs/offerRule") == Set(RuleSectionReader.offerRuleKeys))
        #expect(try keys(rules, "$defs/refundRule") == Set(RuleSectionReader.refundRuleKeys))
        #expect(try keys(rules, "$defs/respond") == Set(RuleSectionReader.respondKeys))
        #expect(try keys(rules, "properties/holdout") == ["percent", "unit", "salt"])
        #expect(try keys(rules, "properties/offers/properties/limits") == ["perCustomer", "perOffer"])
        #expect(try keys(rules, "$defs/limit") == ["max", "within"])
        #expect(try keys(rules, "$defs/active") == ["from", "until"])
        #expect(try keys(rules, "$defs/offer") == ["id", "type", "among"])
        #expect(try keys(rules, "$defs/split") == ["unit", "salt", "variants"])
        #expect(try keys(rules, "properties/retention") == Set(RuleSectionReader.retentionKeys))
        #expect(try keys(rules, "properties/retention/properties/limits") == ["perCustomer", "perOffer"])
        #expect(try keys(rules, "$defs/retentionRule") == Set(RuleSectionReader.retentionRuleKeys))
        #expect(try keys(rules, "$defs/answer") == Set(RuleSectionReader.answerKeys))
        #expect(try keys(rules, "$defs/answer/properties/alternateProduct") == ["productId", "billingPlanType"])
        #expect(try keys(rules, "$defs/answerSplit") == ["unit", "salt", "variants"])
        #expect(try enumValues(rules, "$defs/answer/properties/signature") == Set(RuleSectionReader.signatureVersions))
        #expect(
            try enumValues(rules, "$defs/answer/properties/alternateProduct/properties/billingPlanType")
                == Set(RuleEnum.billingPlanType.caseNames))
    }

    @Test("rules.schema.json: the enumerations the loader accepts")
    func rulesEnumerations() throws {
        let rules = try schema("rules.schema.json")
        #expect(try enumValues(rules, "$defs/offer/properties/type") == Set(RuleSectionReader.offerTypes))
        #expect(try enumValues(rules, "$defs/mode") == Set(RuleMode.allCases.map(\.rawValue)))
        #expect(try enumValues(rules, "$defs/offerRule/properties/onLimit") == Set(LimitBehavior.allCases.map(\.rawValue)))
        #expect(
            try enumValues(rules, "$defs/respond/properties/refundPreference")
                == Set(["none"] + RuleEnum.refundPreference.caseNames))
        let attributeTypes = try enumValues(rules, "properties/attributes/additionalProperties")
        let declared = Set(BundleEnvironmentBuilder.attributeTypes.keys)
        #expect(attributeTypes == declared.union(declared.map { $0 + "?" }))
    }

    @Test("catalog.schema.json: the catalog keys")
    func catalogKeys() throws {
        let catalog = try schema("catalog.schema.json")
        #expect(try keys(catalog, "") == ["currencies", "offers", "products"])
        #expect(try keys(catalog, "properties/products/items") == ["id", "subscriptionGroup", "description"])
        #expect(try keys(catalog, "$defs/offer") == Set(OfferCatalog.offerKeys))
        #expect(try enumValues(catalog, "$defs/offer/properties/type") == Set(RuleSectionReader.offerTypes))
    }

    @Test("messages.schema.json: the keys and Apple's limits the loader checks")
    func messagesKeys() throws {
        let messages = try schema("messages.schema.json")
        #expect(try keys(messages, "") == ["images", "messages", "defaults"])
        #expect(try keys(messages, "properties/messages/items") == ["id", "description", "locales"])
        #expect(try keys(messages, "properties/images/items") == ["id", "file", "size", "sha256", "description"])
        let text = try node(messages, "$defs/text/properties")
        #expect(Set(text.keys) == ["header", "body", "image", "headerPosition", "bulletPoints"])
        #expect((text["header"] as? Object)?["maxLength"] as? Int == RetentionMessages.Limits.header)
        #expect((text["body"] as? Object)?["maxLength"] as? Int == RetentionMessages.Limits.body)
        #expect((text["bulletPoints"] as? Object)?["maxItems"] as? Int == RetentionMessages.Limits.bulletPoints)
        let bullet = try node(messages, "$defs/text/properties/bulletPoints/items/properties")
        #expect((bullet["text"] as? Object)?["maxLength"] as? Int == RetentionMessages.Limits.bulletText)
        let image = try node(messages, "$defs/image/properties")
        #expect((image["altText"] as? Object)?["maxLength"] as? Int == RetentionMessages.Limits.altText)
    }

    @Test("tests.schema.json: file, test and expect keys")
    func testsKeys() throws {
        let tests = try schema("tests.schema.json")
        #expect(try keys(tests, "") == Set(RuleTestSuiteReader.fileKeys))
        #expect(try keys(tests, "properties/tests/items") == Set(RuleTestSuiteReader.testKeys))
        #expect(try keys(tests, "$defs/expect") == Set(RuleTestSuiteReader.expectKeys))
        #expect(try keys(tests, "$defs/limits") == ["perCustomer", "perOffer"])
    }

    @Test("tests.schema.json: every fact of the fact schema, record by record")
    func testsFacts() throws {
        let tests = try schema("tests.schema.json")
        let schema = FactSchema.standard
        #expect(try keys(tests, "$defs/facts") == Set(schema.rootNames))
        #expect(try keys(tests, "$defs/given") == Set(schema.rootNames + ["from"]))
        for record in schema.records where record.name != schema.document.name && !record.fields.isEmpty {
            #expect(try keys(tests, "$defs/\(record.name)") == Set(record.fields.map(\.name)), "\(record.name)")
        }
    }
}
