import RuleEngine
import Testing

@Suite("Bundle: Apple's consumption-request rules at load")
struct ConsumptionRuleTests {
    @Test("a percentage on a rule that does not exclude auto-renewables is refused")
    func percentageNeedsNonAutoRenewable() {
        let errors = BundleTestSupport.errors(rules: BundleTestSupport.refundsFile("""
                - id: r1
                  when: ["event.consumptionRequestReason == UNINTENDED_PURCHASE"]
                  respond: {refundPreference: GRANT_PRORATED, consumptionPercentage: 40}
            """), catalog: nil)
        #expect(errors.first?.message.hasPrefix("consumptionPercentage must be omitted for auto-renewable subscriptions") == true)
        #expect((errors.first?.line, errors.first?.column) == (8, 74))
    }

    @Test("GRANT_PRORATED without a percentage must be limited to auto-renewables")
    func proratedNeedsPercentage() {
        let errors = BundleTestSupport.errors(rules: BundleTestSupport.refundsFile("""
                - id: r1
                  when: ["purchase.productType == CONSUMABLE"]
                  respond: {refundPreference: GRANT_PRORATED}
            """), catalog: nil)
        #expect(errors.map(\.message) == [
            "GRANT_PRORATED needs consumptionPercentage for consumables, non-consumables and non-renewing subscriptions",
        ])
    }

    @Test("the percentage must be 0 when the purchase was not delivered")
    func undeliveredMeansZero() {
        let errors = BundleTestSupport.errors(rules: BundleTestSupport.refundsFile("""
                - id: r1
                  when: ["purchase.productType != AUTO_RENEWABLE"]
                  respond: {refundPreference: GRANT_FULL, deliveryStatus: UNDELIVERED_OTHER, consumptionPercentage: 10}
            """), catalog: nil)
        #expect(errors.map(\.message) == ["consumptionPercentage must be 0 when deliveryStatus is UNDELIVERED_OTHER"])
    }

    @Test("responses that follow Apple's rules load; declining an undelivered purchase warns")
    func validResponses() throws {
        let rules = BundleTestSupport.refundsFile("""
                - id: prorated-one-time
                  when: ["purchase.productType in [CONSUMABLE, NON_CONSUMABLE, NON_RENEWING]", has(usage.consumptionPercentage)]
                  respond: {refundPreference: GRANT_PRORATED, consumptionPercentage: usage.consumptionPercentage}
                - id: prorated-subscription
                  when: ["purchase.productType == AUTO_RENEWABLE"]
                  respond: {refundPreference: GRANT_PRORATED}
                - id: decline-undelivered
                  when: ["event.consumptionRequestReason == OTHER"]
                  respond: {refundPreference: DECLINE, deliveryStatus: UNDELIVERED_OTHER}
            """)
        let diagnostics = BundleTestSupport.diagnostics(rules: rules, catalog: nil)
        #expect(diagnostics.map(\.message) == ["declining a refund for a purchase that was not delivered (UNDELIVERED_OTHER)"])
        #expect(diagnostics.first?.severity == .warning)
        _ = try BundleTestSupport.bundle(rules: rules, catalog: nil)
    }
}
