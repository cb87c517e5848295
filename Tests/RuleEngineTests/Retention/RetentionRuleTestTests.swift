import RuleEngine
import Testing

@Suite("Retention: *.tests.yaml")
struct RetentionRuleTestTests {
    static let rules = RetentionTestSupport.rulesFile("""
            - id: annual-offer
              when: [subscription.productId == 'com.example.pro.annual', subscription.paidPeriods >= 2]
              answer: {message: stay-annual, offer: {id: promo-annual-50, type: PROMOTIONAL}}
            - id: annual-switch
              when: [subscription.productId == 'com.example.pro.annual']
              answer: {message: switch-monthly, alternateProduct: {productId: com.example.pro.monthly-commit}}
        """)

    private func report(_ tests: String) throws -> RuleTestReport {
        var files = RetentionTestSupport.files(rules: Self.rules)
        files.append(BundleSourceFile(path: "Rules/test.tests.yaml", text: tests))
        return RuleTestRunner.run(bundle: try RuleBundle.load(files: files), requireCoverage: true)
    }

    static let given = """
              event: {type: REALTIME_REQUEST, subtype: NONE, environment: PRODUCTION, userLocale: de-DE, signedDate: 2026-12-15T12:00:00Z}
              subscription: {originalTransactionId: '90000000', productId: com.example.pro.annual, price: 59.99 USD, currency: USD, tenure: 400d, paidPeriods: 2, eligibleWinBackOfferIds: []}
              customer: {transactions: [], refunds: [], offersRedeemed: [], decisions: []}
        """

    @Test("a realtime request is decided by the retention section, and its answer is checked")
    func passes() throws {
        let report = try report("""
            tests:
              - name: a paying annual subscriber sees the offer
                given:
            \(Self.given)
                expect: {section: retention, rule: annual-offer, message: stay-annual, offer: promo-annual-50, alternateProduct: none}
              - name: a first-year subscriber is offered the monthly plan
                given:
            \(Self.given.replacingOccurrences(of: "paidPeriods: 2", with: "paidPeriods: 1").replacingOccurrences(of: "de-DE", with: "en-US"))
                expect: {rule: annual-switch, message: switch-monthly, alternateProduct: com.example.pro.monthly-commit, offer: none}
            """)
        #expect(report.succeeded, "\(report.render())")
        #expect(report.uncovered.isEmpty)
    }

    @Test("a wrong expectation fails with what was answered")
    func fails() throws {
        let report = try report("""
            tests:
              - name: wrong
                given:
            \(Self.given)
                expect: {message: switch-monthly}
            """)
        #expect(!report.succeeded)
        #expect(report.render().contains("expected message switch-monthly, got stay-annual"))
    }

    @Test("unknown messages and products in expectations are refused with a suggestion")
    func unknownNames() {
        var files = RetentionTestSupport.files(rules: Self.rules)
        files.append(BundleSourceFile(path: "Rules/test.tests.yaml", text: """
            tests:
              - name: typo
                given:
            \(Self.given)
                expect: {message: stay-anual, alternateProduct: com.example.pro.montly}
            """))
        let errors = RuleBundleChecker.check(files).diagnostics.filter { $0.severity == .error }.map(\.message)
        #expect(errors.contains("unknown message 'stay-anual'"))
        #expect(errors.contains("unknown product 'com.example.pro.montly'"))
    }
}
