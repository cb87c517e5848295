@testable import RuleEngine
import Testing

@Suite("Expression explanations")
struct ExplainTests {
    typealias T = ExpressionTestSupport

    @Test("a condition's operands are listed with their values")
    func operands() throws {
        let table = RuleConstant(type: .map(.money), value: .map(["USD": .money(Money(parsing: "39.99 USD")!)]))
        let environment = CompileEnvironment(constants: ["highValuePrice": table])
        let compiled = try T.compile("subscription.price >= constants.highValuePrice[subscription.currency] && subscription.tenure >= days(365)", environment)
        let trace = compiled.explain(EvaluationContext(facts: try T.facts()))
        #expect(trace.result == .value(.bool(true)))
        #expect(trace.value == "true")
        #expect(trace.operands.map(\.text) == ["subscription.price", "constants.highValuePrice[subscription.currency]", "subscription.tenure"])
        #expect(trace.operands.map(\.value) == ["59.99 USD", "39.99 USD", "400d"])
    }

    @Test("boolean leaves, enums and short-circuited operands")
    func leaves() throws {
        let segment = try T.compile("subscription.paidPeriods == 0")
        let compiled = try T.compile("event.subtype == AUTO_RENEW_DISABLED && (segment.trialOnly || subscription.isInBillingRetry)",
                                     CompileEnvironment(segments: ["trialOnly": segment]))
        let trace = compiled.explain(EvaluationContext(facts: try T.facts()))
        #expect(trace.value == "false")
        #expect(trace.operands.map { "\($0.text)=\($0.value)" } == [
            "event.subtype=AUTO_RENEW_DISABLED", "segment.trialOnly=false", "subscription.isInBillingRetry=false",
        ])
        let short = try T.compile("event.type == EXPIRED && customer.refunds.exists(r, r.date > now)")
        let shortTrace = short.explain(EvaluationContext(facts: try T.facts()))
        #expect(shortTrace.operands.map(\.value) == ["DID_CHANGE_RENEWAL_STATUS", "not evaluated"])
    }

    @Test("errors are explained with the fact that is missing")
    func errors() throws {
        let compiled = try T.compile("purchase.productType in [CONSUMABLE, NON_CONSUMABLE]")
        let trace = compiled.explain(EvaluationContext(facts: try T.facts()))
        #expect(trace.value == "error: purchase.productType is missing")
        #expect(trace.operands.first?.value == "error: purchase.productType is missing")
        #expect(compiled.evaluate(EvaluationContext(facts: try T.facts())) == trace.result)
    }

    @Test("fast and traced evaluation agree")
    func agreement() throws {
        let facts = EvaluationContext(facts: try T.facts())
        for source in ["customer.transactions.filter(t, t.price < subscription.price).size() >= 1",
                       "since(subscription.recentSubscriptionStartDate) > days(30) || subscription.paidPeriods > 5",
                       "sum(customer.transactions.map(t, t.price)) - subscription.price"] {
            let compiled = try T.compile(source)
            #expect(compiled.explain(facts).result == compiled.evaluate(facts), "\(source)")
        }
    }
}
