@testable import RuleEngine
import Testing

/// Shared helpers for the expression tests: compile against the standard schema, evaluate
/// against YAML facts, and read diagnostics.
enum ExpressionTestSupport {
    static let sampleFacts = """
        event: {type: DID_CHANGE_RENEWAL_STATUS, subtype: AUTO_RENEW_DISABLED, environment: Production, signedDate: 2026-12-15T12:00:00Z}
        subscription:
          originalTransactionId: "1000"
          productId: com.example.pro.annual
          price: 59.99 USD
          renewalPrice: 59.99 USD
          currency: USD
          storefront: NOR
          autoRenewStatus: OFF
          isInBillingRetry: false
          eligibleWinBackOfferIds: [wb-1, wb-2]
          recentSubscriptionStartDate: 2025-11-10
          tenure: 400d
          paidPeriods: 2
          offerType: 2
        customer:
          transactions:
            - {productId: com.example.pro.annual, price: 59.99 USD, currency: USD, purchaseDate: 2025-11-10, offerDiscountType: FREE_TRIAL}
            - {productId: com.example.pro.annual, price: 29.99 USD, currency: USD, purchaseDate: 2026-11-10, revocationDate: 2026-12-01}
          refunds: [{productId: com.example.pro.annual, price: 29.99 USD, date: 2026-12-01, revocationType: REFUND_FULL}]
        usage: {consumptionPercentage: 40}
        """

    static func facts(_ yaml: String = sampleFacts, schema: FactSchema = .standard) throws -> Facts {
        try Facts(yaml: yaml, schema: schema)
    }

    static func compile(_ source: String, _ environment: CompileEnvironment = CompileEnvironment()) throws -> CompiledExpression {
        try ExpressionCompiler.compile(source, environment: environment)
    }

    /// Evaluates `source` against `yaml` facts (now = the event's signedDate unless given).
    static func evaluate(_ source: String, facts yaml: String = sampleFacts, now: String? = nil,
                         environment: CompileEnvironment = CompileEnvironment()) throws -> RuleResult {
        let compiled = try compile(source, environment)
        let context = EvaluationContext(facts: try facts(yaml, schema: environment.schema),
                                        now: now.flatMap(RuleTime.parseTimestamp))
        return compiled.evaluate(context)
    }

    /// The value of a condition or expression, failing the test when it errors.
    static func value(_ source: String, facts yaml: String = sampleFacts,
                      environment: CompileEnvironment = CompileEnvironment()) throws -> RuleValue {
        let result = try evaluate(source, facts: yaml, environment: environment)
        guard case .value(let value) = result else {
            Issue.record("\(source) failed: \(result)")
            return .absent
        }
        return value
    }

    /// The diagnostics of a source that must not compile.
    static func diagnostics(_ source: String, _ environment: CompileEnvironment = CompileEnvironment()) -> [ExpressionDiagnostic] {
        do {
            _ = try ExpressionCompiler.compile(source, environment: environment)
            Issue.record("expected \(source) not to compile")
            return []
        } catch {
            return error.diagnostics
        }
    }

    /// The only diagnostic of `source`, with its range as the covered text.
    static func diagnostic(_ source: String, _ environment: CompileEnvironment = CompileEnvironment())
        -> (message: String, text: String, suggestion: String?)? {
        let found = diagnostics(source, environment)
        guard let first = found.first else { return nil }
        #expect(found.count == 1, "\(found)")
        return (first.message, first.range.text(in: source), first.suggestion)
    }
}
