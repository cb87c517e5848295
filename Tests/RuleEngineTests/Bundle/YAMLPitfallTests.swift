import RuleEngine
import Testing

@Suite("Bundle: YAML syntax and pitfalls")
struct YAMLPitfallTests {
    private func rules(when conditions: String) -> String {
        BundleTestSupport.offersFile("""
                - id: r1
                  when:
            \(conditions)
                  offer: {id: promo-annual-50, type: PROMOTIONAL}
            """)
    }

    @Test("a YAML syntax error is positioned with Yams' line and column")
    func syntaxError() {
        let errors = BundleTestSupport.errors(rules: "schema: 1\noffers: {appliesTo: 'x\n")
        let error = errors.first
        #expect(error?.file == "Rules/test.rules.yaml")
        #expect(error?.line == 3)
        #expect(error?.message.hasPrefix("YAML syntax:") == true)
    }

    @Test("a duplicate key is an error at the key")
    func duplicateKey() {
        let errors = BundleTestSupport.errors(rules: "schema: 1\nname: a\nname: b\n")
        #expect(errors.contains { $0.message.contains("duplicate key 'name'") && $0.line == 2 })
    }

    @Test("an unquoted condition starting with ! is a tag, reported with a quoting hint")
    func explicitTag() {
        let errors = BundleTestSupport.errors(rules: rules(when: "          - !segment.x"))
        let error = errors.first { $0.message.contains("YAML tag") }
        #expect(error?.line == 9)
        #expect(error?.column == 13)
        #expect(error?.help == "a value that starts with '!' must be quoted: \"!segment.x\"")
    }

    @Test("a condition containing ': ' read as a mapping is an error")
    func mappingShapedCondition() {
        let errors = BundleTestSupport.errors(rules: rules(when: "          - event.type == EXPIRED ? a : b"))
        #expect(errors.contains { $0.message.contains("was read as a YAML mapping") && $0.line == 9 })
    }

    @Test("a ' #' that cuts a condition short is an error pointing at the comment")
    func commentCutsCondition() {
        let errors = BundleTestSupport.errors(rules: rules(when: "          - subscription.productId == 'com.example #1'"))
        let error = errors.first { $0.message.contains("starts a YAML comment") }
        #expect(error?.line == 9)
        #expect(error?.column == 52)
        #expect(error?.length == 3)
        #expect(error?.help == "quote the whole condition: \"subscription.productId == 'com.example #1'\"")
    }

    @Test("a trailing comment after a complete condition is allowed")
    func trailingCommentAllowed() {
        let errors = BundleTestSupport.errors(rules: rules(when: "          - event.subtype == AUTO_RENEW_DISABLED   # the usual case"))
        #expect(errors.isEmpty)
    }

    @Test("a plain condition continued on the next line is an error")
    func multiLinePlainScalar() {
        let errors = BundleTestSupport.errors(rules: rules(when: "          - event.subtype == AUTO_RENEW_DISABLED &&\n            subscription.paidPeriods > 1"))
        #expect(errors.contains { $0.message.contains("continues on the next line") && $0.line == 9 })
    }

    @Test("a block scalar condition is an error")
    func blockScalar() {
        let errors = BundleTestSupport.errors(rules: rules(when: "          - >\n            event.subtype == AUTO_RENEW_DISABLED"))
        #expect(errors.contains { $0.message.contains("on one line") })
    }

    @Test("the basic resolver keeps NO and yes as text: a test fixture's storefront NO stays a string")
    func basicResolver() throws {
        let bundle = try BundleTestSupport.bundle(
            rules: BundleTestSupport.offerRule(id: "norway", when: #"["subscription.storefront == 'NO'"]"#), tests: """
            tests:
              - name: Norway
                given:
                  event: {type: EXPIRED, signedDate: 2026-12-15}
                  subscription: {productId: com.example.pro.annual, storefront: NO}
                expect: {offer: promo-annual-50}
            """)
        #expect(RuleTestRunner.run(bundle: bundle).summaryLine == "1 passed, 0 failed")
    }

    @Test("yes/no are not booleans in the bundle's own keys either")
    func yesIsNotTrue() {
        let errors = BundleTestSupport.errors(rules: "schema: 1\nrefunds:\n  appliesTo: event.type == CONSUMPTION_REQUEST\n  default: {sampleContentProvided: yes}\n  rules: []\n")
        #expect(errors.contains { $0.message.contains("sampleContentProvided") || $0.message.contains("yes") })
    }
}
