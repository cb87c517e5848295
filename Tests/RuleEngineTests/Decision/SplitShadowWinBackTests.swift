import AppStoreServer
import RuleEngine
import Testing

@Suite("Decision: splits, shadow rules and win-back")
struct SplitShadowWinBackTests {
    let expired = """
        event: {type: EXPIRED, subtype: VOLUNTARY, signedDate: 2026-12-15T12:00:00Z}
        subscription: {originalTransactionId: '90000003', productId: com.example.pro.monthly, paidPeriods: 5, eligibleWinBackOfferIds: [winback-c, winback-b, winback-a]}
        """

    private var splitRules: String {
        BundleTestSupport.offersFile("""
                - id: depth-test
                  when: [event.type == EXPIRED]
                  split:
                    unit: originalTransactionId
                    salt: winback-depth-2026-12
                    variants:
                      - {weight: 50, offer: {id: winback-a, type: WIN_BACK}}
                      - {weight: 50, offer: {id: winback-b, type: WIN_BACK}}
            """)
    }

    @Test("a split picks the variant by the unit's bucket and cumulative weights, the same way every time",
          arguments: [("90000003", 4399, "winback-a"), ("90000004", 1986, "winback-a"), ("90000000", 9332, "winback-b"), ("90000001", 6427, "winback-b")])
    func split(unit: String, bucket: Int, offer: String) throws {
        let bundle = try BundleTestSupport.bundle(rules: splitRules)
        let facts = try BundleTestSupport.facts(expired, "subscription: {originalTransactionId: '\(unit)'}")
        let first = bundle.decide(facts)
        #expect(first.offer?.id == offer)
        #expect(first.buckets.first { $0.purpose == "split:depth-test" }?.bucket == bucket)
        #expect(bundle.decide(facts, explain: false).offer?.id == offer)
    }

    @Test("a shadow rule that matches is recorded and evaluation continues to the live answer")
    func shadow() throws {
        let (autoRenewOff, monthly) = ("[event.subtype == AUTO_RENEW_DISABLED]", "{id: promo-monthly-30, type: PROMOTIONAL}")
        let bundle = try BundleTestSupport.bundle(rules: BundleTestSupport.offerRules(
            BundleTestSupport.rule("candidate", when: autoRenewOff, offer: monthly, extra: "mode: shadow"),
            BundleTestSupport.rule("current", when: autoRenewOff),
            BundleTestSupport.rule("disabled", when: autoRenewOff, offer: monthly, extra: #"mode: "off""#)))
        let decision = bundle.decide(try BundleTestSupport.facts(BundleTestSupport.autoRenewOff))
        #expect(decision.offer?.id == "promo-annual-50")
        #expect(decision.rule?.id == "current")
        #expect(decision.shadowMatches.map(\.rule.id) == ["candidate"])
        #expect(decision.shadowMatches.first?.offer?.id == "promo-monthly-30")
    }

    private var winBackRules: String {
        BundleTestSupport.offerRules(
            BundleTestSupport.rule("winback", offer: "{type: WIN_BACK, among: [winback-a, winback-b]}"),
            BundleTestSupport.rule("fallback", offer: "{id: promo-monthly-30, type: PROMOTIONAL}"))
    }

    @Test("win-back takes the first of the customer's eligible offers, in Apple's order, that the rule allows")
    func winBackOrder() throws {
        let bundle = try BundleTestSupport.bundle(rules: winBackRules)
        let decision = bundle.decide(try BundleTestSupport.facts(expired))
        #expect(decision.offer?.id == "winback-b")
        #expect(decision.offer?.type == .winBackOffer)
        let reordered = try BundleTestSupport.facts(expired, "subscription: {eligibleWinBackOfferIds: [winback-a, winback-b]}")
        #expect(bundle.decide(reordered).offer?.id == "winback-a")
    }

    @Test("with no eligible win-back offer the rule passes to the next one")
    func winBackIneligible() throws {
        let bundle = try BundleTestSupport.bundle(rules: winBackRules)
        let facts = try BundleTestSupport.facts(expired, "subscription: {eligibleWinBackOfferIds: [winback-c]}")
        let decision = bundle.decide(facts)
        #expect(decision.rule?.id == "fallback")
        #expect(decision.trace.contains { $0.rule?.id == "winback" && $0.outcome == .noEligibleOffer })
    }
}
