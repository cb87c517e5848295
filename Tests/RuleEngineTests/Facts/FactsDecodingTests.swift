import Foundation
@testable import RuleEngine
import Testing

@Suite("Facts decoding")
struct FactsDecodingTests {
    static let json = """
        {"event": {"type": "DID_CHANGE_RENEWAL_STATUS", "subtype": "AUTO_RENEW_DISABLED", "environment": "Sandbox",
                   "signedDate": 1797336000000},
         "subscription": {"productId": "com.example.pro.annual", "price": {"milliunits": 59990, "currency": "USD"},
                          "renewalPrice": "49.99 USD", "offerType": 4, "tenure": "400d", "paidPeriods": 2,
                          "recentSubscriptionStartDate": "2025-11-10T00:00:00Z", "autoRenewStatus": 0,
                          "eligibleWinBackOfferIds": ["wb-1"], "storefront": "NOR"},
         "purchase": {"productType": "Auto-Renewable Subscription", "age": 3600000, "transactionId": 2000000012345},
         "customer": {"transactions": [{"productId": "p", "price": "1 USD", "currency": "USD", "purchaseDate": 0,
                                        "offerDiscountType": "FREE_TRIAL", "revocationType": "REFUND_FULL"}],
                      "attributes": {"country": "NO", "level": 3}},
         "usage": {"consumptionPercentage": 40, "consented": true}}
        """

    static let schema = FactSchema(attributes: [RuleField("country", .string, "ISO country"), RuleField("level", .optional(.int), "Level")])

    @Test("JSON facts: Apple wire values and readable names, money objects, epoch milliseconds")
    func json() throws {
        let facts = try Facts(json: Data(Self.json.utf8), schema: Self.schema)
        #expect(facts.value(at: "event.environment") == .enumeration(RuleEnum.environment.ordinal(named: "SANDBOX")!))
        #expect(facts.value(at: "subscription.price") == .money(Money(milliunits: 59_990, currency: "USD")))
        #expect(facts.value(at: "subscription.renewalPrice") == .money(Money(milliunits: 49_990, currency: "USD")))
        #expect(facts.value(at: "subscription.offerType") == .enumeration(RuleEnum.offerType.ordinal(named: "WIN_BACK")!))
        #expect(facts.value(at: "subscription.autoRenewStatus") == .enumeration(RuleEnum.autoRenewStatus.ordinal(named: "OFF")!))
        #expect(facts.value(at: "purchase.productType") == .enumeration(RuleEnum.productType.ordinal(named: "AUTO_RENEWABLE")!))
        #expect(facts.value(at: "purchase.transactionId") == .string("2000000012345"))
        #expect(facts.value(at: "purchase.age") == .duration(RuleTime.hour))
        #expect(facts.value(at: "customer.attributes.country") == .string("NO"))
        #expect(facts.value(at: "usage.deliveryStatus") == .absent)
        #expect(facts.value(at: "customer.refunds") == .table(RecordTable(record: FactDocument.Refund.ruleRecord(), cells: [])))
        #expect(facts.value(at: "subscription.nothing") == nil)
        #expect(facts.signedDate == 1_797_336_000_000)
    }

    @Test("JSON facts evaluate with attributes declared by the rule file")
    func evaluateJSON() throws {
        let facts = try Facts(json: Data(Self.json.utf8), schema: Self.schema)
        let environment = CompileEnvironment(schema: Self.schema)
        let source = "customer.attributes.country == 'NO' && has(customer.attributes.level) && customer.attributes.level >= 3"
            + " && has(subscription.offerType) && subscription.offerType == WIN_BACK && purchase.productType == AUTO_RENEWABLE && event.environment == SANDBOX"
        let compiled = try ExpressionCompiler.compile(source, environment: environment)
        #expect(compiled.evaluate(EvaluationContext(facts: facts)) == .value(.bool(true)))
    }

    @Test("YAML test data is typed by the schema: NO stays a string, 59.99 USD is money")
    func yaml() throws {
        let facts = try Facts(yaml: """
            subscription: {price: 59.99 USD, tenure: 400d, paidPeriods: 2, isInBillingRetry: false, storefront: NO}
            customer:
              refunds: [{date: 2026-11-25, price: 1 EUR, productId: x, revocationType: REFUND_PRORATED}]
              attributes: {country: NO}
            usage: {consented: true, deliveryStatus: ~}
            """, schema: Self.schema)
        #expect(facts.value(at: "subscription.storefront") == .string("NO"))
        #expect(facts.value(at: "customer.attributes.country") == .string("NO"))
        #expect(facts.value(at: "subscription.isInBillingRetry") == .bool(false))
        #expect(facts.value(at: "subscription.tenure") == .duration(400 * RuleTime.day))
        #expect(facts.value(at: "usage.deliveryStatus") == .absent)
        guard case .table(let refunds)? = facts.value(at: "customer.refunds"), case .record(let refund)? = refunds.rows.first else {
            Issue.record("refunds did not decode")
            return
        }
        #expect(refund[2] == .timestamp(RuleTime.parseTimestamp("2026-11-25")!))
    }

    @Test("errors name the path of the bad value", arguments: [
        ("subscription: {price: 59.99}", "subscription.price: expected money such as '9.99 USD' or {milliunits: 9990, currency: USD}, got '59.99'"),
        ("subscription: {tenure: 400 days}", "subscription.tenure: expected a duration such as 400d, 36h, 90m, 30s (or milliseconds), got '400 days'"),
        ("customer: {refunds: [{date: 2026-11-25}, {date: yesterday}]}",
         "customer.refunds[1].date: expected a date such as 2026-11-25 or 2026-11-25T10:00:00Z (or epoch milliseconds), got 'yesterday'"),
        ("subscription: {paidPeriods: two}", "subscription.paidPeriods: expected a whole number, got 'two'"),
        ("subscription: {isInBillingRetry: yes}", "subscription.isInBillingRetry: expected true or false, got 'yes'"),
        ("event: {subtype: AUTO_RENEW_DISABLE}", "event.subtype: unknown Subtype value 'AUTO_RENEW_DISABLE' (did you mean AUTO_RENEW_DISABLED?)"),
        ("subscription: {tenur: 400d}", "subscription.tenur: Subscription has no field 'tenur' (did you mean tenure?)"),
        ("customer: {refunds: {date: 2026-11-25}}", "customer.refunds: expected a list, got an object"),
        ("subscription: [1]", "subscription: expected an object with fields of Subscription, got a list"),
        ("subscriptoin: {}", "subscriptoin: Facts has no field 'subscriptoin' (did you mean subscription?)"),
    ])
    func errors(yaml: String, message: String) {
        do {
            _ = try Facts(yaml: yaml)
            Issue.record("expected an error for \(yaml)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("JSON-specific errors")
    func jsonErrors() {
        #expect(throws: FactsError(path: "", message: "not valid JSON")) { try Facts(json: Data("{".utf8)) }
        #expect(throws: FactsError(path: "subscription.price", message: "expected money such as '9.99 USD' or {milliunits: 9990, currency: USD}, got the decimal number 9.99")) {
            try Facts(json: Data(#"{"subscription": {"price": 9.99}}"#.utf8))
        }
    }

    @Test("unknown enum values are errors unless the caller accepts Apple's newer values")
    func lenientEnums() throws {
        let data = FactData.object(["event": .object(["type": .string("SOMETHING_NEW")])])
        #expect(throws: FactsError.self) { try Facts(data) }
        let facts = try Facts(data, strictEnums: false)
        #expect(facts.value(at: "event.type") == .enumeration(RuleEnum.unrecognizedOrdinal))
        let compiled = try ExpressionCompiler.compile("event.type == EXPIRED", environment: CompileEnvironment())
        #expect(compiled.evaluate(EvaluationContext(facts: facts)) == .value(.bool(false)))
    }

    @Test("fixtures deep-merge: objects by key, lists and scalars replaced")
    func deepMerge() throws {
        let base = try FactData(yaml: "subscription: {price: 1 USD, paidPeriods: 2}\ncustomer: {refunds: [{date: 2026-01-01}]}")
        let given = try FactData(yaml: "subscription: {paidPeriods: 5}\ncustomer: {refunds: []}")
        let merged = base.deepMerged(with: given)
        #expect(merged == .object([
            "subscription": .object(["price": .string("1 USD"), "paidPeriods": .string("5")]),
            "customer": .object(["refunds": .list([])]),
        ]))
    }
}
