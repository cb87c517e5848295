@testable import RuleEngine
import Testing

@Suite("Expression optional facts and error absorption")
struct OptionalFactsTests {
    typealias T = ExpressionTestSupport

    @Test("reading an optional fact without has() is a check error with a fix")
    func unguarded() {
        let found = T.diagnostics("usage.consumptionPercentage > 50")
        #expect(found.first?.message == "usage.consumptionPercentage is optional and may be missing; read it only where has(usage.consumptionPercentage) holds")
        #expect(found.first?.range == SourceRange(start: 0, end: 27))
        #expect(found.first?.replacement == "has(usage.consumptionPercentage)")
        // An `||` with a positive has() does not guard its other side.
        #expect(T.diagnostics("has(usage.consumptionPercentage) || usage.consumptionPercentage > 50").count == 1)
        // A guard for another field does not count.
        #expect(T.diagnostics("has(usage.consented) && usage.consumptionPercentage > 50").count == 1)
    }

    @Test("has() guards in && chains, in negated || chains, in macros and from earlier conditions", arguments: [
        "has(usage.consumptionPercentage) && usage.consumptionPercentage > 50",
        "usage.consumptionPercentage > 50 && has(usage.consumptionPercentage)",
        "!has(usage.consumptionPercentage) || usage.consumptionPercentage > 50",
        "!(!has(usage.consumptionPercentage) || usage.consented == true) && usage.consumptionPercentage > 1 && has(usage.consented)",
        "customer.transactions.exists(t, has(t.revocationDate) && t.revocationDate > now - days(30))",
    ])
    func guarded(source: String) {
        #expect(throws: Never.self) { try T.compile(source) }
    }

    @Test("guaranteed facts flow to the next condition of a rule")
    func acrossConditions() throws {
        let first = try T.compile("has(usage.consumptionPercentage) && has(usage.deliveryStatus)")
        #expect(first.guaranteedFacts == ["usage.consumptionPercentage", "usage.deliveryStatus"])
        let next = CompileEnvironment(guardedFacts: first.guaranteedFacts)
        #expect(throws: Never.self) { try T.compile("usage.consumptionPercentage > 10 && usage.deliveryStatus == DELIVERED", next) }
    }

    @Test("values of present optional facts")
    func present() throws {
        #expect(try T.value("has(usage.consumptionPercentage) && usage.consumptionPercentage == 40") == .bool(true))
        #expect(try T.value("has(usage.deliveryStatus)") == .bool(false))
        #expect(try T.value("has(subscription.offerType) && subscription.offerType == PROMOTIONAL") == .bool(true))
    }

    @Test("a missing fact at run time is an error naming it")
    func runtimeAbsence() throws {
        // `usage.sessionsSincePurchase` is missing: the guard is false and absorbs nothing with `||`.
        let guarded = "!has(usage.sessionsSincePurchase) || usage.sessionsSincePurchase == 0"
        #expect(try T.value(guarded) == .bool(true))
        let environment = CompileEnvironment(guardedFacts: ["usage.sessionsSincePurchase"])
        let result = try T.evaluate("usage.sessionsSincePurchase == 0", environment: environment)
        #expect(result.error?.message == "usage.sessionsSincePurchase is missing")
        #expect(result.error?.range == SourceRange(start: 0, end: 27))
        let required = try T.evaluate("purchase.productType == CONSUMABLE")
        #expect(required.error?.message == "purchase.productType is missing")
    }

    @Test("&& and || absorb an error when the other side decides (CEL)", arguments: [
        ("purchase.age < days(1) && false", RuleResult.value(.bool(false))),
        ("false && purchase.age < days(1)", .value(.bool(false))),
        ("purchase.age < days(1) || true", .value(.bool(true))),
        ("true || purchase.age < days(1)", .value(.bool(true))),
        ("purchase.age < days(1) && true", .error(EvaluationError("purchase.age is missing", at: SourceRange(start: 0, end: 12)))),
        ("false || purchase.age < days(1)", .error(EvaluationError("purchase.age is missing", at: SourceRange(start: 9, end: 21)))),
        ("purchase.age < days(1) && purchase.price > money('1 USD')",
         .error(EvaluationError("purchase.age is missing", at: SourceRange(start: 0, end: 12)))),
        ("!(purchase.age < days(1))", .error(EvaluationError("purchase.age is missing", at: SourceRange(start: 2, end: 14)))),
    ])
    func absorption(source: String, expected: RuleResult) throws {
        // A literal side is not folded away when the other side reads facts.
        let compiled = try T.compile(source)
        #expect(compiled.evaluate(EvaluationContext(facts: try T.facts())) == expected)
    }
}
