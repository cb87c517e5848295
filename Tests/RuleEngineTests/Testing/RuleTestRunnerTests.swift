import RuleEngine
import Testing

@Suite("Testing: the rule test runner")
struct RuleTestRunnerTests {
    let rules = BundleTestSupport.offersFile("""
            - id: annual-high-value
              active: {from: 2026-12-01T00:00:00Z, until: 2027-01-31T23:59:59Z}
              when:
                - event.subtype == AUTO_RENEW_DISABLED
                - subscription.tenure >= days(365)
              offer: {id: promo-annual-50, type: PROMOTIONAL}
            - id: trial-only
              when: [subscription.paidPeriods == 0]
              offer: {id: promo-monthly-30, type: PROMOTIONAL}
              mode: shadow
        """, section: """
          never:
            - id: no-offers-to-recent-refunders
              if: customer.refunds.exists(r, r.date > now - days(90))
        """)

    private func tests(_ body: String) -> String {
        """
        rules: test.rules.yaml
        now: 2026-12-15T12:00:00Z
        fixtures:
          loyalAnnual:
            event: {type: DID_CHANGE_RENEWAL_STATUS, subtype: AUTO_RENEW_DISABLED}
            subscription: {originalTransactionId: '90000000', productId: com.example.pro.annual, price: 59.99 USD, tenure: 400d, paidPeriods: 2}
            customer: {refunds: []}
        tests:
        \(body)
        """
    }

    @Test("passing tests print 'N passed, N failed'; given deep-merges over from; now may be set per test")
    func passing() throws {
        let bundle = try BundleTestSupport.bundle(rules: rules, tests: tests("""
              - name: loyal annual subscriber gets 50% off
                given: {from: loyalAnnual}
                expect: {offer: promo-annual-50, rule: annual-high-value, heldOut: false}
              - name: a recent refund blocks every offer
                given:
                  from: loyalAnnual
                  customer: {refunds: [{date: 2026-11-25}]}
                expect: {offer: none, blockedBy: no-offers-to-recent-refunders}
              - name: before the campaign starts
                now: 2026-11-30T23:00:00Z
                given: {from: loyalAnnual}
                expect:
                  offer: none
                  conditions: {"subscription.tenure >= days(365)": true}
              - name: trial-only customers match the shadow rule, which is never acted on
                given: {from: loyalAnnual, subscription: {paidPeriods: 0, tenure: 100d}}
                expect: {shadowMatch: trial-only, offer: none}
            """))
        let report = RuleTestRunner.run(bundle: bundle, requireCoverage: true)
        #expect(report.summaryLine == "4 passed, 0 failed")
        #expect(report.uncovered.isEmpty)
        #expect(report.succeeded)
        #expect(report.render() == "4 passed, 0 failed")
    }

    @Test("a failing test is printed with its expectation and explanation; the last line is the summary")
    func failing() throws {
        let bundle = try BundleTestSupport.bundle(rules: rules, tests: tests("""
              - name: wrong expectation
                given: {from: loyalAnnual, subscription: {tenure: 100d}}
                expect: {offer: promo-annual-50}
            """))
        let report = RuleTestRunner.run(bundle: bundle)
        #expect(report.summaryLine == "0 passed, 1 failed")
        let result = try #require(report.results.first)
        #expect(result.failures == ["expected offer promo-annual-50, got none"])
        let text = report.render()
        #expect(text.hasPrefix("FAIL Rules/test.tests.yaml:9: wrong expectation"))
        #expect(text.contains("✗ line 13: subscription.tenure >= days(365)  →  false"))
        #expect(text.hasSuffix("0 passed, 1 failed"))
    }

    @Test("coverage lists rules and vetoes no test hit, and can be required")
    func coverage() throws {
        let bundle = try BundleTestSupport.bundle(rules: rules, tests: tests("""
              - name: only the main rule
                given: {from: loyalAnnual}
                expect: {offer: promo-annual-50}
            """))
        let optional = RuleTestRunner.run(bundle: bundle)
        #expect(optional.uncovered.map(\.id) == ["no-offers-to-recent-refunders", "trial-only"])
        #expect(optional.succeeded)
        let required = RuleTestRunner.run(bundle: bundle, requireCoverage: true)
        #expect(!required.succeeded)
        #expect(required.render().contains("error: not covered by any test: no-offers-to-recent-refunders"))
    }

    @Test("limits stated by a test are what the limits port reports")
    func testLimits() throws {
        let autoRenewOff = "[event.subtype == AUTO_RENEW_DISABLED]"
        let limited = BundleTestSupport.offerRules(
            BundleTestSupport.rule("big", when: autoRenewOff),
            BundleTestSupport.rule("small", when: autoRenewOff, offer: "{id: promo-monthly-30, type: PROMOTIONAL}"),
            section: "  limits:\n    perOffer:\n      promo-annual-50: {max: 5, within: 1d}")
        let bundle = try BundleTestSupport.bundle(rules: limited, tests: tests("""
              - name: budget spent
                limits: {perOffer: {promo-annual-50: 5}}
                given: {from: loyalAnnual}
                expect: {offer: promo-monthly-30, rule: small}
            """))
        #expect(RuleTestRunner.run(bundle: bundle).summaryLine == "1 passed, 0 failed")
    }
}
