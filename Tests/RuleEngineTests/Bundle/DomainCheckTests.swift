import RuleEngine
import Testing

@Suite("Bundle: structure and catalog checks")
struct DomainCheckTests {
    @Test("rule ids are unique across the bundle")
    func duplicateIds() {
        let rules = BundleTestSupport.offerRules(
            BundleTestSupport.rule(), BundleTestSupport.rule(offer: "{id: promo-monthly-30, type: PROMOTIONAL}"))
        let errors = BundleTestSupport.errors(rules: rules)
        #expect(errors.map(\.message) == ["id 'r1' is already used at line 7"])
        #expect(errors.first?.line == 10)
    }

    @Test("a catalog offer's expiresAfter is a positive duration")
    func catalogExpiry() throws {
        let rules = BundleTestSupport.offerRule()
        let catalog = BundleTestSupport.catalog.replacingOccurrences(
            of: "productIds: [com.example.pro.annual]\n    subscriptionGroup: pro",
            with: "productIds: [com.example.pro.annual]\n    subscriptionGroup: pro\n    expiresAfter: 36h")
        let bundle = try BundleTestSupport.bundle(rules: rules, catalog: catalog)
        #expect(bundle.catalog.offer("promo-annual-50")?.expiresAfter == Int64(129_600_000))
        #expect(bundle.catalog.offer("promo-monthly-30")?.expiresAfter == nil)
        let bad = catalog.replacingOccurrences(of: "expiresAfter: 36h", with: "expiresAfter: soon")
        let error = BundleTestSupport.errors(rules: rules, catalog: bad).first
        #expect(error?.message == "expiresAfter must be a positive duration, found 'soon'")
        #expect(error?.file.hasSuffix("catalog.yaml") == true)
    }

    @Test("a rule's expiresAfter is carried on its offer choice")
    func ruleExpiry() throws {
        let rules = BundleTestSupport.offerRule(when: "[event.type == DID_CHANGE_RENEWAL_STATUS]", extra: "expiresAfter: 2d")
        let bundle = try BundleTestSupport.bundle(rules: rules)
        let decision = bundle.decide(try BundleTestSupport.facts(BundleTestSupport.autoRenewOff))
        #expect(decision.offer?.expiresAfter?.millis == Int64(2 * 86_400_000))
        let bad = rules.replacingOccurrences(of: "expiresAfter: 2d", with: "expiresAfter: -2d")
        #expect(BundleTestSupport.errors(rules: bad).first?.message == "expiresAfter must be a positive duration, found '-2d'")
    }

    @Test("an offer's type must match the catalog")
    func offerTypeMismatch() {
        let rules = BundleTestSupport.offerRule(offer: "{id: promo-annual-50, type: WIN_BACK}")
        let error = BundleTestSupport.errors(rules: rules).first
        #expect(error?.message == "offer promo-annual-50 is a PROMOTIONAL offer in catalog.yaml, not WIN_BACK")
        #expect(error?.suggestion == "PROMOTIONAL")
    }

    @Test("an offer must be for every product the rule's conditions allow")
    func productFit() {
        let rules = BundleTestSupport.offerRule(when: #"["subscription.productId in ['com.example.pro.annual', 'com.example.pro.monthly']"]"#)
        let error = BundleTestSupport.errors(rules: rules).first
        #expect(error?.message == "offer promo-annual-50 is not for 'com.example.pro.monthly', which this rule's conditions allow")
    }

    @Test("an unsupported schema version is refused")
    func schemaVersion() {
        let errors = BundleTestSupport.errors(rules: "schema: 2\n")
        #expect(errors.first?.message == "schema 2 is not supported by this engine")
    }

    @Test("win-back 'among' must name WIN_BACK offers")
    func amongMustBeWinBack() {
        let rules = BundleTestSupport.offerRule(offer: "{type: WIN_BACK, among: [winback-a, promo-annual-50]}")
        #expect(BundleTestSupport.errors(rules: rules).first?.message
            == "offer promo-annual-50 is a PROMOTIONAL offer in catalog.yaml; 'among' lists win-back offers")
    }

    @Test("a test naming an unknown rule is a load error with a suggestion")
    func testNamesUnknownRule() {
        let rules = BundleTestSupport.offerRule(id: "annual-high-value")
        let tests = """
            tests:
              - name: t
                given: {event: {type: EXPIRED}}
                expect: {rule: annual-hgh-value}
            """
        let error = BundleTestSupport.errors(rules: rules, tests: tests).first
        #expect(error?.file == "Rules/test.tests.yaml")
        #expect(error?.message == "unknown rule 'annual-hgh-value'")
        #expect(error?.suggestion == "annual-high-value")
    }

    @Test("a bad fixture value is a load error at the value, with the facts path")
    func badFixtureValue() {
        let rules = BundleTestSupport.offerRule()
        let tests = """
            fixtures:
              base:
                subscription: {price: lots}
            tests:
              - name: t
                given: {from: base, event: {type: EXPIRED}}
                expect: {offer: none}
            """
        let error = BundleTestSupport.errors(rules: rules, tests: tests).first
        #expect(error?.message.hasPrefix("subscription.price:") == true)
        #expect((error?.line, error?.column) == (3, 27))
    }
}
