import Foundation
@testable import RuleEngine
import Testing

/// `customer.lifetimePurchased` and `customer.lifetimeRefunded`: money per currency, decoded from
/// JSON and YAML, read by currency in rules, and guarded with `in`.
@Suite("Facts: lifetime money per currency")
struct LifetimeMoneyFactsTests {
    private func evaluate(_ source: String, _ facts: Facts) throws -> RuleResult {
        try ExpressionCompiler.compile(source, environment: CompileEnvironment(schema: .standard))
            .evaluate(EvaluationContext(facts: facts))
    }

    private let yaml = """
        purchase: {productType: CONSUMABLE, currency: EUR}
        customer:
          lifetimePurchased: {USD: 120 USD, EUR: {milliunits: 4990, currency: EUR}}
          lifetimeRefunded: {USD: 12.50 USD}
        """

    @Test("the schema declares both as map<string, money>")
    func schema() {
        #expect(FactSchema.standard.type(at: "customer.lifetimePurchased") == .map(.money))
        #expect(FactSchema.standard.type(at: "customer.lifetimeRefunded") == .map(.money))
        let markdown = FactSchema.standard.markdownReference()
        #expect(markdown.contains("| `lifetimeRefunded` | `map<string, money>` | always | Money the customer was refunded, per ISO 4217 currency (never added across currencies)"))
        #expect(markdown.contains("lists and tables that are not supplied are empty"))
        let json = FactSchema.standard.jsonSchema()
        #expect(json.contains("\"lifetimePurchased\": {\"type\": \"object\", \"propertyNames\": {\"pattern\": \"^[A-Z]{3}$\"}"))
    }

    @Test("YAML test data and JSON decode to money per currency")
    func decoding() throws {
        let fromYAML = try Facts(yaml: yaml)
        #expect(fromYAML.value(at: "customer.lifetimePurchased") == .map([
            "USD": .money(Money(milliunits: 120_000, currency: "USD")),
            "EUR": .money(Money(milliunits: 4_990, currency: "EUR")),
        ]))
        #expect(fromYAML.value(at: "customer.lifetimeRefunded") == .map(["USD": .money(Money(milliunits: 12_500, currency: "USD"))]))
        let fromJSON = try Facts(json: Data("""
            {"customer": {"lifetimeRefunded": {"USD": "12.50 USD", "NOK": {"milliunits": 99000, "currency": "NOK"}}}}
            """.utf8))
        #expect(fromJSON.value(at: "customer.lifetimeRefunded") == .map([
            "USD": .money(Money(milliunits: 12_500, currency: "USD")),
            "NOK": .money(Money(milliunits: 99_000, currency: "NOK")),
        ]))
    }

    @Test("not supplied reads as no entries")
    func absentIsEmpty() throws {
        let facts = try Facts(yaml: "customer: {refunds: []}")
        #expect(facts.value(at: "customer.lifetimeRefunded") == .map([:]))
        #expect(try evaluate("'USD' in customer.lifetimeRefunded", facts) == .value(.bool(false)))
        #expect(try evaluate("size(customer.lifetimePurchased) == 0", facts) == .value(.bool(true)))
    }

    @Test("an entry in another currency than its key, or a value that is not money, is a facts error")
    func badEntries() {
        #expect(throws: FactsError(path: "customer.lifetimeRefunded.USD", message: "expected money in USD (the entry's key), got 5 EUR")) {
            try Facts(yaml: "customer: {lifetimeRefunded: {USD: 5 EUR}}")
        }
        #expect(throws: FactsError.self) { try Facts(yaml: "customer: {lifetimeRefunded: [12 USD]}") }
        #expect(throws: FactsError.self) { try Facts(yaml: "customer: {lifetimePurchased: {USD: 12}}") }
    }

    @Test("rules read an entry by currency; a missing entry is an error unless guarded with `in`")
    func reading() throws {
        let facts = try Facts(yaml: yaml)
        #expect(try evaluate("customer.lifetimeRefunded['USD'] > money('10 USD')", facts) == .value(.bool(true)))
        #expect(try evaluate("customer.lifetimePurchased[purchase.currency] >= money('4.99 EUR')", facts) == .value(.bool(true)))
        #expect(try evaluate("'EUR' in customer.lifetimeRefunded && customer.lifetimeRefunded['EUR'] > money('1 EUR')", facts)
            == .value(.bool(false)))
        guard case .error(let error) = try evaluate("customer.lifetimeRefunded['EUR'] > money('1 EUR')", facts) else {
            Issue.record("a missing entry should be an evaluation error")
            return
        }
        #expect(error.message == "customer.lifetimeRefunded has no entry for 'EUR'")
        guard case .error(let mixed) = try evaluate("customer.lifetimePurchased['EUR'] > money('1 USD')", facts) else {
            Issue.record("comparing different currencies should be an evaluation error")
            return
        }
        #expect(mixed.message.contains("cannot compare"))
    }

    @Test("a bundle's tests can give the tables in fixtures")
    func inRuleTests() throws {
        let rules = BundleTestSupport.refundsFile("""
                - id: frequent-refunder
                  when:
                    - "'USD' in customer.lifetimeRefunded"
                    - customer.lifetimeRefunded['USD'] > money('50 USD')
                  respond: {refundPreference: DECLINE}
            """)
        let tests = """
            rules: test.rules.yaml
            now: 2026-12-15T12:00:00Z
            fixtures:
              request:
                event: {type: CONSUMPTION_REQUEST, consumptionRequestReason: UNINTENDED_PURCHASE}
                purchase: {productType: CONSUMABLE}
            tests:
              - name: refunded a lot in USD
                given: {from: request, customer: {lifetimeRefunded: {USD: 80 USD, EUR: 5 EUR}}}
                expect: {rule: frequent-refunder, refundPreference: DECLINE}
              - name: refunded only in EUR
                given: {from: request, customer: {lifetimeRefunded: {EUR: 80 EUR}}}
                expect: {refundPreference: none}
              - name: never refunded
                given: {from: request}
                expect: {refundPreference: none}
            """
        let bundle = try BundleTestSupport.bundle(rules: rules, catalog: nil, tests: tests)
        let report = RuleTestRunner.run(bundle: bundle, requireCoverage: true)
        #expect(report.summaryLine == "3 passed, 0 failed")
    }
}
