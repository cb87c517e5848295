import RuleEngine
import Testing

@Suite("Bundle: diagnostics")
struct RuleDiagnosticTests {
    @Test("renders file:line:col, the source line, a caret run and did-you-mean")
    func rendering() {
        let diagnostic = RuleDiagnostic(
            .error, at: BundleLocation(file: "Rules/retention.rules.yaml", line: 46, column: 28), length: 18,
            message: "unknown value 'AUTO_RENEW_DISABLE' for event.subtype",
            sourceLine: "        - event.subtype == AUTO_RENEW_DISABLE", suggestion: "AUTO_RENEW_DISABLED")
        #expect(diagnostic.render() == """
            Rules/retention.rules.yaml:46:28: error: unknown value 'AUTO_RENEW_DISABLE' for event.subtype
               46 |         - event.subtype == AUTO_RENEW_DISABLE
                  |                            ^~~~~~~~~~~~~~~~~~
                  = did you mean AUTO_RENEW_DISABLED?
            """)
    }

    @Test("an expression error is mapped into the file at the scalar's column plus the offset")
    func expressionErrorMapped() throws {
        let rules = BundleTestSupport.offersFile("""
                - id: r1
                  when:
                    - event.subtype == AUTO_RENEW_DISABLE
                  offer: {id: promo-annual-50, type: PROMOTIONAL}
            """)
        let error = try #require(BundleTestSupport.errors(rules: rules).first)
        #expect(error.line == 9)
        #expect(error.column == 28)
        #expect(error.length == 18)
        #expect(error.sourceLine == "        - event.subtype == AUTO_RENEW_DISABLE")
        #expect(error.suggestion == "AUTO_RENEW_DISABLED")
        #expect(error.render().contains("^~~~~~~~~~~~~~~~~~"))
    }

    @Test("in a quoted condition the offset starts after the quote")
    func quotedScalarOffset() throws {
        let rules = BundleTestSupport.offersFile("""
                - id: r1
                  when:
                    - "!segment.trialOnyl"
                  offer: {id: promo-annual-50, type: PROMOTIONAL}
            """, top: "segments:\n  trialOnly: subscription.paidPeriods == 0")
        let error = try #require(BundleTestSupport.errors(rules: rules).first)
        #expect(error.line == 10)
        #expect(error.column == 21)
        #expect(error.suggestion == "trialOnly")
    }

    @Test("a misspelled key gets a did-you-mean")
    func misspelledKey() throws {
        let rules = BundleTestSupport.offersFile("""
                - id: r1
                  wehn: [event.type == EXPIRED]
                  offer: {id: promo-annual-50, type: PROMOTIONAL}
            """)
        let error = try #require(BundleTestSupport.errors(rules: rules).first)
        #expect(error.message == "unknown key 'wehn' in an offer rule")
        #expect(error.suggestion == "when")
        #expect((error.line, error.column) == (8, 7))
    }

    @Test("a misspelled offer id gets a did-you-mean over the catalog")
    func misspelledOffer() throws {
        let rules = BundleTestSupport.offerRule(offer: "{id: promo-anual-50, type: PROMOTIONAL}")
        let error = try #require(BundleTestSupport.errors(rules: rules).first)
        #expect(error.message == "unknown offer 'promo-anual-50': catalog.yaml does not list it")
        #expect(error.suggestion == "promo-annual-50")
        #expect((error.line, error.column) == (9, 19))
    }
}
