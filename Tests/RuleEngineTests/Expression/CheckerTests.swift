@testable import RuleEngine
import Testing

@Suite("Expression checker")
struct CheckerTests {
    typealias T = ExpressionTestSupport

    @Test("misspellings get a did-you-mean", arguments: [
        ("event.subtype == AUTO_RENEW_DISABLE", "unknown value 'AUTO_RENEW_DISABLE' for Subtype", "AUTO_RENEW_DISABLE", "AUTO_RENEW_DISABLED"),
        ("evnt.type == EXPIRED", "unknown name 'evnt'", "evnt", "event"),
        ("subscription.tenur > days(1)", "subscription has no field 'tenur'", "tenur", "tenure"),
        ("customer.refunds.exists(r, r.dat > now)", "r has no field 'dat'", "dat", "date"),
        ("size(customer.refunds) > 0 && cont(customer.refunds) > 1", "unknown function 'cont'", "cont", "count"),
        ("customer.refunds.exist(r, true)", "unknown function 'exist'", "exist", "exists"),
        ("event.type in [EXPIRED, DID_CHANGE_RENEWAL_STATU]", "unknown value 'DID_CHANGE_RENEWAL_STATU' for NotificationType",
         "DID_CHANGE_RENEWAL_STATU", "DID_CHANGE_RENEWAL_STATUS"),
        ("subscription.offerType == WINBACK && has(subscription.offerType)", "unknown value 'WINBACK' for OfferType", "WINBACK", "WIN_BACK"),
        ("event.environment == sandbox", "unknown value 'sandbox' for Environment", "sandbox", "SANDBOX"),
        ("segments.trialOnly", "unknown name 'segments'", "segments", "segment"),
    ])
    func didYouMean(source: String, message: String, text: String, suggestion: String) {
        let found = T.diagnostic(source)
        #expect(found?.message == message)
        #expect(found?.text == text)
        #expect(found?.suggestion == "did you mean \(suggestion)?")
    }

    @Test("type errors", arguments: [
        ("subscription.price > 5", "cannot apply '>' to money and int", "subscription.price > 5"),
        ("event.type == 'EXPIRED'", "compare NotificationType with a value name, not a string", "'EXPIRED'"),
        ("event.type < EXPIRED", "NotificationType values have no order; '<' needs int, string, money, duration or timestamp", "event.type < EXPIRED"),
        ("subscription.paidPeriods && true", "'&&' needs true or false on both sides, not int", "subscription.paidPeriods"),
        ("!subscription.productId", "'!' needs true or false, not string", "subscription.productId"),
        ("subscription.productId in ['a', 1]", "list elements must all be string, not int", "1"),
        ("subscription.tenure + subscription.price", "cannot apply '+' to duration and money", "subscription.tenure + subscription.price"),
        ("EXPIRED == EXPIRED", "'EXPIRED' is a NotificationType value; compare it with a fact of that type, e.g. x == EXPIRED", "EXPIRED"),
        ("customer.refunds.exists(r, r.price)", "exists needs a condition (true or false), not money", "r.price"),
        ("subscription.price.exists(p, true)", "exists works on lists, not money", "subscription.price"),
        ("customer.refunds.exists(event, true)", "'event' is already a name here; choose another variable name", "event"),
        ("event.type.name == 'x'", "NotificationType has no fields ('name')", "name"),
        ("subscription.currency[0] == 'U'", "only tables (maps) can be indexed with [ ], not string", "subscription.currency[0]"),
        ("sum(customer.refunds) > 0", "sum() does not accept (list<Refund>); use sum(list of int, money or duration)", "sum(customer.refunds)"),
        ("subscription.productId.startsWith(1)", "startsWith() does not accept (int) on string; use text.startsWith('…')",
         "subscription.productId.startsWith(1)"),
        ("customer == customer", "records cannot be compared with ==; compare their fields", "customer == customer"),
        ("has(subscription.price)", "subscription.price is always present; has() is only for optional facts", "subscription.price"),
        ("has(subscription)", "has() takes one fact field, e.g. has(usage.consumptionPercentage)", "has(subscription)"),
        ("money('9.999 9 USD') > subscription.price", "'9.999 9 USD' is not money: write an amount with at most 3 decimals and an ISO 4217 code, e.g. '9.99 USD'", "'9.999 9 USD'"),
        ("date('2026-02-30') < now", "'2026-02-30' is not a date: use e.g. '2026-12-01' or '2026-12-01T08:00:00Z'", "'2026-02-30'"),
        ("duration('3 days') < subscription.tenure", "'3 days' is not a duration: use e.g. '36h', '90m', '400d', '1d12h'", "'3 days'"),
        ("money(subscription.currency) > subscription.price", "money() takes one quoted text, e.g. money('9.99 USD')", "money(subscription.currency)"),
        ("[] == customer.refunds", "an empty list needs a type from the other side of the comparison", "[]"),
        ("constants.missing", "unknown constant 'missing'", "missing"),
        ("segment.missing", "unknown segment 'missing'", "missing"),
        ("constants", "'constants' must be followed by '.<name>'", "constants"),
    ])
    func typeErrors(source: String, message: String, text: String) {
        let found = T.diagnostic(source)
        #expect(found?.message == message)
        #expect(found?.text == text)
    }

    @Test("several independent errors are all reported")
    func collectsErrors() {
        let found = T.diagnostics("evnt.type == EXPIRED && subscription.tenur > days(1)")
        #expect(found.map(\.message) == ["unknown name 'evnt'", "subscription has no field 'tenur'"])
    }

    @Test("literal currencies that differ are a check-time error")
    func literalCurrencies() {
        let found = T.diagnostic("money('9.99 USD') < money('8 EUR')")
        #expect(found?.message == "cannot compare 9.99 USD with 8 EUR: different currencies")
        #expect(found?.text == "money('9.99 USD') < money('8 EUR')")
        let sum = T.diagnostic("subscription.price > money('1 USD') + money('1 GBP')")
        #expect(sum?.message == "cannot add 1 USD and 1 GBP: different currencies")
        #expect(sum?.text == "money('1 USD') + money('1 GBP')")
    }

    @Test("constant overflow is a check-time error")
    func constantOverflow() {
        #expect(T.diagnostic("9223372036854775807 + 1 > 0")?.message == "integer overflow")
        #expect(T.diagnostic("days(9223372036854775807) > subscription.tenure")?.message == "integer overflow")
    }

    @Test("expressions longer than the limit are rejected at the limit")
    func lengthLimit() {
        let source = "subscription.paidPeriods >= 1" + String(repeating: " && subscription.paidPeriods >= 1", count: 10)
        let found = T.diagnostic(source)
        #expect(found?.message == "expression is \(source.count) characters long; the limit is 300 (move parts into segments)")
        #expect(found?.text == String(source.dropFirst(300)))
    }

    @Test("macros nest at most twice")
    func macroNesting() {
        let ok = "customer.refunds.exists(r, customer.transactions.exists(t, t.productId == r.productId))"
        #expect(throws: Never.self) { try T.compile(ok) }
        let deep = "customer.refunds.exists(r, customer.transactions.exists(t, customer.refunds.exists(q, q.date == t.purchaseDate)))"
        let found = T.diagnostic(deep)
        #expect(found?.message == "list macros nest at most 2 deep; move the inner part into a segment")
        #expect(found?.text == "customer.refunds.exists(q, q.date == t.purchaseDate)")
    }

    @Test("conditions must be bool")
    func conditionType() {
        do {
            _ = try ExpressionCompiler.compileCondition("subscription.tenure", environment: CompileEnvironment())
            Issue.record("expected an error")
        } catch {
            #expect(error.diagnostics.map(\.message) == ["a condition must be true or false, but this is a duration"])
        }
    }

    @Test("constants cannot read facts, now or segments")
    func constantsEnvironment() {
        let environment = CompileEnvironment.forConstants()
        #expect(T.diagnostic("subscription.price", environment)?.message == "constants cannot read facts ('subscription')")
        #expect(T.diagnostic("now - days(1)", environment)?.message == "constants cannot use now")
        #expect(T.diagnostic("since(date('2026-01-01'))", environment)?.message == "constants cannot use since(), which reads now")
    }

    @Test("references and types are reported for the bundle layer")
    func references() throws {
        let constants = ["premium": RuleConstant(type: .list(.string), value: .list([.string("a")]))]
        let segment = try T.compile("subscription.paidPeriods == 0")
        let environment = CompileEnvironment(constants: constants, segments: ["trialOnly": segment])
        let compiled = try T.compile("segment.trialOnly && subscription.productId in constants.premium", environment)
        #expect(compiled.referencedSegments == ["trialOnly"])
        #expect(compiled.referencedConstants == ["premium"])
        #expect(compiled.type == .bool)
        #expect(compiled.readsFacts)
        let constant = try T.compile("days(2) + hours(3)")
        #expect(!constant.readsFacts)
        #expect(constant.constantValue == .duration(2 * RuleTime.day + 3 * RuleTime.hour))
    }

    @Test("constants fold to values; folding rejects facts")
    func foldConstants() throws {
        let list = try ExpressionCompiler.foldConstant("['com.example.a', 'com.example.b']", environment: .forConstants())
        #expect(list == RuleConstant(type: .list(.string), value: .list([.string("com.example.a"), .string("com.example.b")])))
        let price = try ExpressionCompiler.foldConstant("money('39.99 USD') - money('10 USD')", environment: .forConstants())
        #expect(price.value == .money(Money(milliunits: 29_990, currency: "USD")))
        #expect(throws: ExpressionDiagnostics.self) {
            try ExpressionCompiler.foldConstant("subscription.price", environment: .forConstants())
        }
    }

    @Test("did-you-mean uses edit distance with transpositions and ignores case")
    func editDistance() {
        #expect(DidYouMean.suggestion(for: "EXPRIED", among: ["EXPIRED", "REFUND"]) == "EXPIRED")
        #expect(DidYouMean.suggestion(for: "expired", among: ["EXPIRED", "REFUND"]) == "EXPIRED")
        #expect(DidYouMean.suggestion(for: "banana", among: ["EXPIRED", "REFUND"]) == nil)
        #expect(DidYouMean.editDistance(Array("kitten".unicodeScalars), Array("sitting".unicodeScalars)) == 3)
    }
}
