import Foundation
@testable import RuleEngine
import Testing

@Suite("Expression operators")
struct OperatorTests {
    typealias T = ExpressionTestSupport

    @Test("comparisons on every ordered type", arguments: [
        ("subscription.paidPeriods == 2", true), ("subscription.paidPeriods != 2", false),
        ("subscription.paidPeriods < 3", true), ("subscription.paidPeriods <= 2", true),
        ("subscription.paidPeriods > 2", false), ("subscription.paidPeriods >= 3", false),
        ("3 > subscription.paidPeriods", true),
        ("subscription.productId == 'com.example.pro.annual'", true), ("subscription.productId < 'com.z'", true),
        ("subscription.price == money('59.99 USD')", true), ("subscription.price > money('59.989 USD')", true),
        ("subscription.price <= money('59.98 USD')", false),
        ("subscription.tenure > days(399)", true), ("subscription.tenure >= duration('400d')", true),
        ("subscription.tenure < hours(9600)", false),
        ("subscription.recentSubscriptionStartDate == date('2025-11-10')", true),
        ("subscription.recentSubscriptionStartDate < timestamp('2025-11-10T00:00:01Z')", true),
        ("subscription.isInBillingRetry == false", true), ("subscription.isInBillingRetry != true", true),
        ("event.type == DID_CHANGE_RENEWAL_STATUS", true), ("EXPIRED == event.type", false),
        ("event.type != EXPIRED", true), ("subscription.autoRenewStatus == OFF", true),
        ("event.environment == PRODUCTION", true), ("event.subtype == event.subtype", true),
        ("subscription.eligibleWinBackOfferIds == ['wb-1', 'wb-2']", true),
    ])
    func comparisons(source: String, expected: Bool) throws {
        #expect(try T.value(source) == .bool(expected))
    }

    @Test("logical operators and negation", arguments: [
        ("true && subscription.paidPeriods == 2", true), ("subscription.paidPeriods == 1 && true", false),
        ("subscription.paidPeriods == 1 || subscription.paidPeriods == 2", true), ("false || false", false),
        ("!(subscription.paidPeriods == 1)", true), ("!subscription.isInBillingRetry", true), ("!!true", true),
    ])
    func logic(source: String, expected: Bool) throws {
        #expect(try T.value(source) == .bool(expected))
    }

    @Test("in on lists, constant lists and tables", arguments: [
        ("event.type in [DID_CHANGE_RENEWAL_STATUS, EXPIRED]", true), ("event.type in [SUBSCRIBED, EXPIRED]", false),
        ("'wb-2' in subscription.eligibleWinBackOfferIds", true), ("'wb-3' in subscription.eligibleWinBackOfferIds", false),
        ("subscription.paidPeriods in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]", true), ("subscription.storefront in ['NOR', 'SWE']", true),
        ("subscription.currency in constants.prices", true), ("'CHF' in constants.prices", false),
        ("subscription.price in [money('59.99 USD')]", true),
    ])
    func membership(source: String, expected: Bool) throws {
        let table = RuleConstant(type: .map(.money), value: .map(["USD": .money(Money(parsing: "39.99 USD")!)]))
        let environment = CompileEnvironment(constants: ["prices": table])
        #expect(try T.value(source, environment: environment) == .bool(expected))
    }

    @Test("arithmetic on ints, money, durations and timestamps", arguments: [
        ("subscription.paidPeriods + 3", RuleValue.int(5)), ("subscription.paidPeriods - 5", .int(-3)),
        ("subscription.paidPeriods * 4", .int(8)), ("-subscription.paidPeriods", .int(-2)),
        ("subscription.price + money('0.01 USD')", .money(Money(milliunits: 60_000, currency: "USD"))),
        ("subscription.price - subscription.renewalPrice", .money(Money(milliunits: 0, currency: "USD"))),
        ("subscription.price * 2", .money(Money(milliunits: 119_980, currency: "USD"))),
        ("subscription.tenure - days(1)", .duration(399 * RuleTime.day)),
        ("subscription.tenure + hours(1)", .duration(400 * RuleTime.day + RuleTime.hour)),
        ("days(1) * 7", .duration(7 * RuleTime.day)), ("-days(1)", .duration(-RuleTime.day)),
        ("now - days(1)", .timestamp(RuleTime.parseTimestamp("2026-12-14T12:00:00Z")!)),
        ("days(1) + now", .timestamp(RuleTime.parseTimestamp("2026-12-16T12:00:00Z")!)),
        ("now - date('2026-12-15')", .duration(12 * RuleTime.hour)),
        ("subscription.productId + '!'", .string("com.example.pro.annual!")),
    ])
    func arithmetic(source: String, expected: RuleValue) throws {
        #expect(try T.value(source) == expected)
    }

    @Test("integer overflow at run time is an error")
    func overflow() throws {
        let facts = T.sampleFacts.replacingOccurrences(of: "paidPeriods: 2", with: "paidPeriods: 9223372036854775807")
        let result = try T.evaluate("subscription.paidPeriods + 1 > 0", facts: facts)
        #expect(result.error?.message == "integer overflow")
    }

    @Test("maps index by string keys; a missing entry is an error naming the table")
    func tables() throws {
        let table = RuleConstant(type: .map(.money), value: .map(["USD": .money(Money(parsing: "39.99 USD")!)]))
        let environment = CompileEnvironment(constants: ["highValuePrice": table])
        #expect(try T.value("subscription.price >= constants.highValuePrice[subscription.currency]", environment: environment) == .bool(true))
        let euro = T.sampleFacts.replacingOccurrences(of: "currency: USD\n  storefront", with: "currency: EUR\n  storefront")
        let result = try T.evaluate("subscription.price >= constants.highValuePrice[subscription.currency]", facts: euro, environment: environment)
        #expect(result.error?.message == "constants.highValuePrice has no entry for 'EUR'")
        let found = T.diagnostic("constants.highValuePrice['USX'] > subscription.price", environment)
        #expect(found?.message == "constants.highValuePrice has no entry 'USX'")
        #expect(found?.suggestion == "did you mean USD?")
    }
}
