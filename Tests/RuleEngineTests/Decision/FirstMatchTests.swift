import AppStoreServer
import RuleEngine
import Testing

@Suite("Decision: appliesTo and first match")
struct FirstMatchTests {
    let rules = BundleTestSupport.offersFile("""
            - id: long-tenure
              when:
                - event.subtype == AUTO_RENEW_DISABLED
                - subscription.tenure >= days(365)
              offer: {id: promo-annual-50, type: PROMOTIONAL}
            - id: any-disabler
              when:
                - event.subtype == AUTO_RENEW_DISABLED
              offer: {id: promo-monthly-30, type: PROMOTIONAL}
        """)

    @Test("the first rule whose conditions all hold wins, in file order")
    func firstMatchWins() throws {
        let bundle = try BundleTestSupport.bundle(rules: rules)
        let decision = bundle.decide(try BundleTestSupport.facts(BundleTestSupport.autoRenewOff))
        #expect(decision.section == .offers)
        #expect(decision.offer?.id == "promo-annual-50")
        #expect(decision.offer?.type == .promotionalOffer)
        #expect(decision.rule?.id == "long-tenure")
        #expect(decision.rule?.line == 7)
    }

    @Test("a rule that does not match passes the decision to the next one, and the trace names its first false condition")
    func fallsThrough() throws {
        let bundle = try BundleTestSupport.bundle(rules: rules)
        let facts = try BundleTestSupport.facts(BundleTestSupport.autoRenewOff, "subscription: {tenure: 200d}")
        let decision = bundle.decide(facts)
        #expect(decision.rule?.id == "any-disabler")
        let first = try #require(decision.trace.first { $0.rule?.id == "long-tenure" })
        #expect(first.outcome == .notMatched)
        #expect(first.conditions.map(\.expression) == ["subscription.tenure >= days(365)"])
        #expect(first.conditions.first?.value == "false")
        #expect(first.conditions.first?.line == 10)
        #expect(first.conditions.first?.operands.contains { $0.text == "subscription.tenure" && $0.value == "200d" } == true)
    }

    @Test("a section whose appliesTo is false does not decide")
    func appliesTo() throws {
        let bundle = try BundleTestSupport.bundle(rules: rules)
        let facts = try BundleTestSupport.facts(BundleTestSupport.autoRenewOff, "event: {type: SUBSCRIBED}")
        let decision = bundle.decide(facts)
        #expect(decision.section == nil)
        #expect(decision.offer == nil)
        #expect(decision.trace.first?.kind == .appliesTo)
        #expect(decision.trace.first?.outcome == .notMatched)
    }
}
