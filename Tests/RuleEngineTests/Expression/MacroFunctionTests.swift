@testable import RuleEngine
import Testing

@Suite("Expression macros and functions")
struct MacroFunctionTests {
    typealias T = ExpressionTestSupport

    @Test("list macros", arguments: [
        ("customer.transactions.exists(t, t.price < money('30 USD'))", RuleValue.bool(true)),
        ("customer.transactions.exists(t, t.price > money('60 USD'))", .bool(false)),
        ("customer.transactions.all(t, t.currency == 'USD')", .bool(true)),
        ("customer.transactions.all(t, t.price > money('30 USD'))", .bool(false)),
        ("customer.transactions.exists_one(t, t.price > money('30 USD'))", .bool(true)),
        ("customer.transactions.exists_one(t, t.currency == 'USD')", .bool(false)),
        ("customer.transactions.filter(t, t.price < money('30 USD')).size()", .int(1)),
        ("customer.transactions.map(t, t.price)", .list([.money(Money(parsing: "59.99 USD")!), .money(Money(parsing: "29.99 USD")!)])),
        ("customer.offersRedeemed.all(o, o.offerType == WIN_BACK)", .bool(true)),
        ("customer.offersRedeemed.exists(o, true)", .bool(false)),
        ("customer.refunds.exists(r, customer.transactions.exists(t, t.purchaseDate < r.date && t.price == r.price))", .bool(true)),
    ])
    func macros(source: String, expected: RuleValue) throws {
        #expect(try T.value(source) == expected)
    }

    @Test("functions", arguments: [
        ("size(customer.transactions)", RuleValue.int(2)), ("customer.transactions.size()", .int(2)),
        ("count(customer.refunds)", .int(1)), ("size(subscription.storefront)", .int(3)), ("size('é€')", .int(2)),
        ("size(constants.table)", .int(2)),
        ("sum(customer.transactions.map(t, t.price))", .money(Money(parsing: "89.98 USD")!)),
        ("sum([1, 2, 3])", .int(6)), ("sum(customer.refunds.map(r, days(1)))", .duration(RuleTime.day)),
        ("sum(customer.offersRedeemed.map(o, o.date - o.date))", .duration(0)),
        ("min(customer.transactions.map(t, t.price))", .money(Money(parsing: "29.99 USD")!)),
        ("max(customer.transactions.map(t, t.purchaseDate))", .timestamp(RuleTime.parseTimestamp("2026-11-10")!)),
        ("max(3, subscription.paidPeriods, 1)", .int(3)), ("min('b', 'a')", .string("a")),
        ("days(2)", .duration(2 * RuleTime.day)), ("hours(36)", .duration(36 * RuleTime.hour)),
        ("since(date('2026-12-14'))", .duration(36 * RuleTime.hour)),
        ("subscription.productId.startsWith('com.example.')", .bool(true)),
        ("subscription.productId.endsWith('.monthly')", .bool(false)),
        ("subscription.productId.contains('pro')", .bool(true)),
    ])
    func functions(source: String, expected: RuleValue) throws {
        let table = RuleConstant(type: .map(.int), value: .map(["a": .int(1), "b": .int(2)]))
        #expect(try T.value(source, environment: CompileEnvironment(constants: ["table": table])) == expected)
    }

    @Test("sum of an empty money list is a zero that compares with any currency")
    func emptyMoneySum() throws {
        #expect(try T.value("sum(customer.offersRedeemed.map(o, money('1 EUR'))) < money('1 USD')") == .bool(true))
        #expect(try T.value("sum(customer.offersRedeemed.map(o, money('1 EUR')))").rendered(as: .money) == "0")
    }

    @Test("min and max of an empty list are errors")
    func emptyMinMax() throws {
        let result = try T.evaluate("min(customer.offersRedeemed.map(o, o.date)) < now")
        #expect(result.error?.message == "min of an empty list")
        #expect(try T.evaluate("max(customer.decisions.map(d, d.date)) < now").error?.message == "max of an empty list")
    }

    @Test("exists absorbs an element's error when another element is true; all when one is false")
    func macroErrors() throws {
        let facts = """
            customer:
              transactions:
                - {productId: a, price: 5 USD, currency: USD, purchaseDate: 2026-01-01}
                - {productId: b, price: 5 EUR, currency: EUR, purchaseDate: 2026-01-01}
            """
        #expect(try T.value("customer.transactions.exists(t, t.price > money('1 EUR'))", facts: facts) == .bool(true))
        #expect(try T.value("customer.transactions.all(t, t.price > money('9 EUR'))", facts: facts) == .bool(false))
        let exists = try T.evaluate("customer.transactions.exists(t, t.price > money('9 EUR'))", facts: facts)
        #expect(exists.error?.message == "cannot compare 5 USD with 9 EUR: different currencies")
        let all = try T.evaluate("customer.transactions.all(t, t.price > money('1 EUR'))", facts: facts)
        #expect(all.error?.message == "cannot compare 5 USD with 1 EUR: different currencies")
        for source in ["customer.transactions.filter(t, t.price > money('1 EUR')).size() > 0",
                       "customer.transactions.exists_one(t, t.price > money('1 EUR'))",
                       "size(customer.transactions.map(t, t.price + money('1 EUR'))) > 0"] {
            #expect(try T.evaluate(source, facts: facts).error?.message.hasPrefix("cannot") == true, "\(source)")
        }
        let sum = try T.evaluate("sum(customer.transactions.map(t, t.price)) > money('1 USD')", facts: facts)
        #expect(sum.error?.message == "cannot add 5 USD and 5 EUR: different currencies")
    }

    @Test("filtered tables feed further macros; nested macros see both variables")
    func chainedTables() throws {
        #expect(try T.value("customer.transactions.filter(t, t.price < money('50 USD')).exists(u, u.purchaseDate == date('2026-11-10'))") == .bool(true))
        #expect(try T.value("customer.transactions.filter(t, t.price > money('50 USD')).map(u, u.productId)") == .list([.string("com.example.pro.annual")]))
        #expect(try T.value("customer.transactions.filter(t, false || t.price > money('100 USD')).size()") == .int(0))
        #expect(try T.value("customer.transactions.exists(t, customer.refunds.exists(r, r.price == t.price && r.date > t.purchaseDate))") == .bool(true))
        #expect(try T.value("[1, 2, 3].filter(n, n > 1).map(n, n * 10)") == .list([.int(20), .int(30)]))
        #expect(try T.value("subscription.eligibleWinBackOfferIds.exists(id, id.startsWith('wb-') && id.endsWith('2'))") == .bool(true))
    }

    @Test("a whole record can be the result, rebuilt from its cells")
    func wholeRecord() throws {
        guard case .record(let fields) = try T.value("event") else {
            Issue.record("expected a record")
            return
        }
        #expect(fields.first == .enumeration(RuleEnum.notificationType.ordinal(named: "DID_CHANGE_RENEWAL_STATUS")!))
    }

    @Test("records cannot be listed, mapped to, or looked up")
    func recordValues() {
        #expect(T.diagnostic("customer.transactions.map(t, t).size() > 0")?.message == "map must produce values, not records; map to a field such as t.price")
        #expect(T.diagnostic("size([subscription]) > 0")?.message == "lists of records cannot be written; use a fact list such as customer.transactions")
        #expect(T.diagnostic("customer.refunds.exists(r, r in customer.refunds)")?.message == "records cannot be looked up with 'in'; use exists(…) on their fields")
    }
}

