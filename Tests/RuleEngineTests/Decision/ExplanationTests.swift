import Foundation
import RuleEngine
import Testing

@Suite("Decision: explanation, text and JSON")
struct ExplanationTests {
    let rules = BundleTestSupport.offersFile("""
            - id: annual-high-value
              when:
                - event.subtype == AUTO_RENEW_DISABLED
                - subscription.price >= constants.highValue[subscription.currency]
              offer: {id: promo-annual-50, type: PROMOTIONAL}
            - id: tenure
              when: [subscription.tenure >= days(730)]
              offer: {id: promo-monthly-30, type: PROMOTIONAL}
        """, top: """
        constants:
          highValue: {USD: money('39.99 USD'), EUR: money('39.99 EUR')}
        holdout: {percent: 5, unit: originalTransactionId, salt: retention-holdout-2026}
        """)

    private func decision() throws -> Decision {
        try BundleTestSupport.bundle(rules: rules).decide(try BundleTestSupport.facts(BundleTestSupport.autoRenewOff))
    }

    @Test("the deciding rule's conditions are traced with their source, value and operand values")
    func winningRuleTrace() throws {
        let decision = try decision()
        #expect(decision.bundle.hasPrefix("sha256:"))
        #expect(decision.now?.description == "2026-12-15T12:00:00Z")
        let entry = try #require(decision.trace.first { $0.rule?.id == "annual-high-value" })
        #expect(entry.outcome == .passed)
        #expect(entry.conditions.map(\.value) == ["true", "true"])
        let price = try #require(entry.conditions.last)
        #expect(price.line == 12)
        #expect(price.operands.contains { $0.text == "subscription.price" && $0.value == "59.99 USD" })
        #expect(price.operands.contains { $0.text == "constants.highValue[subscription.currency]" && $0.value == "39.99 USD" })
        #expect(!decision.trace.contains { $0.rule?.id == "tenure" })
    }

    @Test("the fast path names the rule and buckets but carries no trace")
    func fastPath() throws {
        let bundle = try BundleTestSupport.bundle(rules: rules)
        let decision = bundle.decide(try BundleTestSupport.facts(BundleTestSupport.autoRenewOff), explain: false)
        #expect(decision.rule?.id == "annual-high-value")
        #expect(decision.buckets.count == 1)
        #expect(decision.trace.isEmpty)
    }

    @Test("renderText names the result, rule, holdout bucket and conditions")
    func text() throws {
        let text = try decision().renderText()
        #expect(text.contains("result: offer promo-annual-50 (PROMOTIONAL) by rule annual-high-value (Rules/test.rules.yaml:9)"))
        #expect(text.contains("holdout: not held out (bucket 7456 ≥ 500), unit 90000000, salt retention-holdout-2026"))
        #expect(text.contains("✓ line 12: subscription.price >= constants.highValue[subscription.currency]  →  true"))
        #expect(text.contains("subscription.price = 59.99 USD"))
    }

    @Test("the decision round-trips through JSON with ISO instants")
    func json() throws {
        let decision = try decision()
        let data = try JSONEncoder().encode(decision)
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains("\"now\":\"2026-12-15T12:00:00Z\""))
        #expect(text.contains("\"section\":\"offers\""))
        #expect(try JSONDecoder().decode(Decision.self, from: data) == decision)
    }
}
