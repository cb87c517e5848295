import RuleEngine
import Testing

@Suite("Decision: refunds semantics")
struct RefundSemanticsTests {
    let rules = BundleTestSupport.refundsFile("""
            - id: legal
              when: [event.consumptionRequestReason == LEGAL]
              respond: {refundPreference: GRANT_FULL}
            - id: undelivered
              when:
                - purchase.productType != AUTO_RENEWABLE
                - has(usage.deliveryStatus) && usage.deliveryStatus != DELIVERED
                - has(usage.consumptionPercentage)
              respond: {refundPreference: GRANT_FULL, deliveryStatus: usage.deliveryStatus, consumptionPercentage: usage.consumptionPercentage}
            - id: partly-used
              when:
                - "purchase.productType in [CONSUMABLE, NON_CONSUMABLE, NON_RENEWING]"
                - has(usage.consumptionPercentage)
                - usage.consumptionPercentage > 0
              respond:
                refundPreference: GRANT_PRORATED
                consumptionPercentage: usage.consumptionPercentage
                deliveryStatus: DELIVERED
                sampleContentProvided: false
        """)
    let request = "event: {type: CONSUMPTION_REQUEST, consumptionRequestReason: UNINTENDED_PURCHASE, signedDate: 2026-12-15}"

    @Test("a refund rule answers with its preference and Apple's fields")
    func respond() throws {
        let bundle = try BundleTestSupport.bundle(rules: rules, catalog: nil)
        let decision = bundle.decide(try BundleTestSupport.facts(request, "purchase: {productType: CONSUMABLE}\nusage: {consumptionPercentage: 40}"))
        #expect(decision.section == .refunds)
        #expect(decision.rule?.id == "partly-used")
        #expect(decision.refund?.refundPreference == "GRANT_PRORATED")
        #expect(decision.refund?.consumptionPercentage == 40_000)
        #expect(decision.refund?.deliveryStatus == "DELIVERED")
        #expect(decision.refund?.sampleContentProvided == false)
    }

    @Test("with no matching rule the default answers (here: no preference)")
    func defaultResponse() throws {
        let bundle = try BundleTestSupport.bundle(rules: rules, catalog: nil)
        let decision = bundle.decide(try BundleTestSupport.facts(request, "purchase: {productType: AUTO_RENEWABLE}"))
        #expect(decision.rule == nil)
        #expect(decision.refund?.refundPreference == nil)
        #expect(decision.refund?.consumptionPercentage == nil)
    }

    @Test("a response field computed from facts is corrected to Apple's rules at decision time, and the correction recorded")
    func runtimeAppleRules() throws {
        let bundle = try BundleTestSupport.bundle(rules: rules, catalog: nil)
        let undelivered = "purchase: {productType: CONSUMABLE}\nusage: {deliveryStatus: UNDELIVERED_SERVER_OUTAGE, consumptionPercentage: 30}"
        let corrected = bundle.decide(try BundleTestSupport.facts(request, undelivered))
        #expect(corrected.rule?.id == "undelivered")
        #expect(corrected.errors.isEmpty)
        #expect(corrected.refund?.refundPreference == "GRANT_FULL")
        #expect(corrected.refund?.deliveryStatus == "UNDELIVERED_SERVER_OUTAGE")
        #expect(corrected.refund?.consumptionPercentage == 0)
        let correction = try #require(corrected.corrections.first)
        #expect(corrected.corrections.count == 1)
        #expect(correction.rule.id == "undelivered")
        #expect(correction.field == "consumptionPercentage")
        #expect(correction.from == "30000")
        #expect(correction.to == "0")
        #expect(correction.reason == "consumptionPercentage must be 0 when deliveryStatus is UNDELIVERED_SERVER_OUTAGE")
        let entry = try #require(corrected.trace.first { $0.rule?.id == "undelivered" })
        #expect(entry.outcome == .passed)
        #expect(entry.note == "answer corrected for Apple: consumptionPercentage 30000 → 0")
        let zero = "purchase: {productType: CONSUMABLE}\nusage: {deliveryStatus: UNDELIVERED_SERVER_OUTAGE, consumptionPercentage: 0}"
        let valid = bundle.decide(try BundleTestSupport.facts(request, zero))
        #expect(valid.rule?.id == "undelivered")
        #expect(valid.refund?.deliveryStatus == "UNDELIVERED_SERVER_OUTAGE")
        #expect(valid.refund?.consumptionPercentage == 0)
        #expect(valid.corrections.isEmpty)
        #expect(valid.trace.first { $0.rule?.id == "undelivered" }?.note == nil)
    }

    @Test("a rule whose condition cannot be evaluated is skipped and counted")
    func erroringRuleSkipped() throws {
        let bundle = try BundleTestSupport.bundle(rules: rules, catalog: nil)
        let decision = bundle.decide(try BundleTestSupport.facts(request, "usage: {consumptionPercentage: 40}"))
        #expect(decision.rule == nil)
        let entry = try #require(decision.trace.first { $0.rule?.id == "partly-used" })
        #expect(entry.outcome == .error)
        #expect(entry.conditions.first?.expression == "purchase.productType in [CONSUMABLE, NON_CONSUMABLE, NON_RENEWING]")
        #expect(decision.errors.map(\.rule.id) == ["undelivered", "partly-used"])
    }
}
