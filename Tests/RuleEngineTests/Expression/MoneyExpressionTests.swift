import Foundation
@testable import RuleEngine
import Testing

@Suite("Expression money and currencies")
struct MoneyExpressionTests {
    typealias T = ExpressionTestSupport
    static let euroFacts = T.sampleFacts
        .replacingOccurrences(of: "price: 59.99 USD\n  renewalPrice: 59.99 USD\n  currency: USD",
                              with: "price: 8 EUR\n  renewalPrice: 8.5 EUR\n  currency: EUR")

    @Test("comparing or combining amounts of different currencies at run time is an error", arguments: [
        ("subscription.price == money('9.99 USD')", "cannot compare 8 EUR with 9.99 USD: different currencies"),
        ("subscription.price != money('9.99 USD')", "cannot compare 8 EUR with 9.99 USD: different currencies"),
        ("subscription.price < money('9.99 USD')", "cannot compare 8 EUR with 9.99 USD: different currencies"),
        ("subscription.price + money('1 USD') > subscription.price", "cannot add 8 EUR and 1 USD: different currencies"),
        ("subscription.price - money('1 USD') > subscription.price", "cannot subtract 8 EUR and 1 USD: different currencies"),
        ("max(subscription.price, money('1 USD')) > subscription.price", "cannot compare 1 USD with 8 EUR: different currencies"),
        ("subscription.price in [money('8 USD')]", "cannot compare 8 EUR with 8 USD: different currencies"),
    ])
    func runtimeCurrencyErrors(source: String, message: String) throws {
        #expect(throws: Never.self) { try T.compile(source) }
        #expect(try T.evaluate(source, facts: Self.euroFacts).error?.message == message)
    }

    @Test("the same currency compares and adds exactly")
    func sameCurrency() throws {
        #expect(try T.value("subscription.price < subscription.renewalPrice", facts: Self.euroFacts) == .bool(true))
        #expect(try T.value("subscription.renewalPrice - subscription.price", facts: Self.euroFacts) == .money(Money(milliunits: 500, currency: "EUR")))
        #expect(try T.value("money('0.1 USD') + money('0.2 USD') == money('0.3 USD')") == .bool(true))
        #expect(try T.value("money('0.001 USD') * 3") == .money(Money(milliunits: 3, currency: "USD")))
        #expect(try T.value("-money('1.5 JPY')") == .money(Money(milliunits: -1_500, currency: "JPY")))
    }

    @Test("literal currency mismatches are caught at check time, with the operator's range")
    func checkTime() {
        for (source, message) in [
            ("money('1 USD') == money('1 EUR')", "cannot compare 1 USD with 1 EUR: different currencies"),
            ("money('1 USD') - money('1 EUR') > subscription.price", "cannot subtract 1 USD and 1 EUR: different currencies"),
            ("min(money('1 USD'), money('2 EUR')) > subscription.price", "cannot compare 2 EUR with 1 USD: different currencies"),
            ("sum([money('1 USD'), money('2 EUR')]) > subscription.price", "cannot add 1 USD and 2 EUR: different currencies"),
        ] {
            #expect(T.diagnostic(source)?.message == message, "\(source)")
        }
    }

    @Test("money renders as the PM wrote it")
    func rendering() {
        #expect(RuleValue.money(Money(parsing: "39.990 EUR")!).rendered(as: .money) == "39.99 EUR")
        #expect(RuleValue.money(Money(parsing: "5800 JPY")!).rendered(as: .money) == "5800 JPY")
    }
}
