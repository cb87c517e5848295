import RuleEngine
import Testing

@Suite("Bundle: lints")
struct LintTests {
    @Test("rules after an unconditional live rule are unreachable")
    func unreachable() {
        let rules = BundleTestSupport.offersFile("""
                - id: everyone
                  offer: {id: promo-monthly-30, type: PROMOTIONAL}
                - id: never-reached
                  when: [event.type == EXPIRED]
                  offer: {id: promo-annual-50, type: PROMOTIONAL}
            """)
        let error = BundleTestSupport.errors(rules: rules).first
        #expect(error?.message == "rule never-reached can never be reached: rule everyone (line 7) above it always decides")
        #expect((error?.line, error?.column) == (9, 11))
    }

    @Test("an unconditional rule that can fall through on a limit does not make later rules unreachable")
    func limitedUnconditionalIsReachable() {
        let rules = BundleTestSupport.offersFile("""
                - id: everyone
                  offer: {id: promo-monthly-30, type: PROMOTIONAL}
                - id: reached
                  when: [event.type == EXPIRED]
                  offer: {id: promo-annual-50, type: PROMOTIONAL}
            """, section: "  limits:\n    perOffer:\n      promo-monthly-30: {max: 10, within: 1d}")
        #expect(BundleTestSupport.errors(rules: rules).isEmpty)
    }

    @Test("unused segments and constants are warnings")
    func unusedNames() {
        let rules = BundleTestSupport.offerRule(when: "[segment.used]", top: """
            constants:
              spare: days(3)
            segments:
              used: event.type == EXPIRED
              unused: event.type == SUBSCRIBED
            """)
        let diagnostics = BundleTestSupport.diagnostics(rules: rules)
        #expect(diagnostics.allSatisfy { $0.severity == .warning })
        #expect(diagnostics.map(\.message) == ["constant 'spare' is never used", "segment 'unused' is never used"])
    }

    @Test("one mistake is one error: nothing cascades from a failed segment, constant or rule")
    func noCascade() {
        let rules = BundleTestSupport.offersFile("""
                - id: r1
                  when: [segment.paid, subscription.tenure > constants.minimum]
                  offer: {id: promo-annual-50, type: PROMOTIONAL}
                - id: r2
                  when: [subscription.productIdd == 'x']
                  offer: {id: promo-monthly-30, type: PROMOTIONAL}
            """, top: """
            constants:
              threshold: money('5 USD')
              minimum: days(-)
            segments:
              paid: subscription.pricee >= constants.threshold
            """)
        let tests = """
            tests:
              - name: t1
                given: {event: {type: EXPIRED}}
                expect: {rule: r1, conditions: {segment.paid: true}}
              - name: t2
                given: {event: {type: EXPIRED}}
                expect: {rule: r2, conditions: {"subscription.productIdd == 'x'": true}}
            """
        let diagnostics = BundleTestSupport.diagnostics(rules: rules, tests: tests)
        // The three mistakes, each once — no "unknown segment/constant", no "never used", no
        // "unknown rule" or "no condition" from the tests.
        #expect(diagnostics.count == 3, "\(diagnostics.map(\.message))")
        #expect(diagnostics.allSatisfy { $0.severity == .error && $0.file.hasSuffix("test.rules.yaml") })
        #expect(diagnostics.contains { $0.message.contains("pricee") })
        #expect(diagnostics.contains { $0.message.contains("productIdd") })
    }

    @Test("split weights must add up to 100")
    func splitWeights() {
        let rules = BundleTestSupport.offersFile("""
                - id: r1
                  when: [event.type == EXPIRED]
                  split:
                    unit: originalTransactionId
                    salt: s1
                    variants:
                      - {weight: 50, offer: {id: winback-a, type: WIN_BACK}}
                      - {weight: 40, offer: {id: winback-b, type: WIN_BACK}}
            """)
        let error = BundleTestSupport.errors(rules: rules).first
        #expect(error?.message == "split weights add up to 90, not 100")
        #expect(error?.line == 10)
    }

    @Test("active.until before active.from is an error")
    func windowOrder() {
        let rules = BundleTestSupport.offersFile("""
                - id: r1
                  active: {from: 2026-12-01, until: 2026-11-01}
                  when: [event.type == EXPIRED]
                  offer: {id: promo-annual-50, type: PROMOTIONAL}
            """)
        let error = BundleTestSupport.errors(rules: rules).first
        #expect(error?.message == "active.until (2026-11-01T00:00:00Z) is before active.from (2026-12-01T00:00:00Z)")
    }

    @Test("a per-currency table must cover every currency the catalog sells in")
    func currencyTable() {
        let rules = BundleTestSupport.offerRule(when: #"["subscription.price >= constants.highValue[subscription.currency]"]"#, top: """
            constants:
              highValue:
                USD: money('39.99 USD')
            """)
        let error = BundleTestSupport.errors(rules: rules).first
        #expect(error?.message == "constants.highValue has no entry for EUR, which catalog.yaml sells in")
        #expect(error?.line == 3)
    }
}
