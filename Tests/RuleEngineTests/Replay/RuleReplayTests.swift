import RuleEngine
import Testing

@Suite("Replay: a candidate bundle re-decides stored decisions")
struct RuleReplayTests {
    typealias Support = ReplayTestSupport

    static let twoRules = BundleTestSupport.offerRules(
        BundleTestSupport.rule("high-value", when: "[\"subscription.price >= constants.highValue[subscription.currency]\"]"),
        BundleTestSupport.rule("tenure", when: "[subscription.tenure >= days(365)]", offer: "{id: promo-monthly-30, type: PROMOTIONAL}"),
        top: "constants:\n  highValue: {USD: money('39.99 USD'), EUR: money('39.99 EUR')}")

    static let customers = [
        Support.autoRenewOff("1", price: "59.99 USD", at: Support.start),
        Support.autoRenewOff("2", price: "59.99 EUR", at: Support.start + Support.day),
        Support.autoRenewOff("3", price: "19.99 USD", at: Support.start + 2 * Support.day),
        Support.autoRenewOff("4", price: "59.99 USD", at: Support.start + 3 * Support.day, tenure: "30d"),
    ]

    @Test("the same bundle changes nothing, against the record and against itself")
    func sameBundle() throws {
        let bundle = try BundleTestSupport.bundle(rules: Self.twoRules)
        let cases = try Support.history(Self.customers, section: .offers, baseline: bundle)
        for report in [Support.replay(cases, candidate: bundle, reference: bundle),
                       Support.replay(cases, candidate: bundle, baseline: .bundle(bundle, source: "active"))] {
            #expect(report.totals == .init(replayed: 4, changed: 0, unchanged: 4, errors: 0))
            #expect(report.diff.isEmpty)
            #expect(report.transitions.allSatisfy { !$0.changed })
        }
    }

    @Test("a reordered rule moves the customers both rules match, and the diff says it moved")
    func reorderedRule() throws {
        let baseline = try BundleTestSupport.bundle(rules: Self.twoRules)
        let reordered = BundleTestSupport.offerRules(
            BundleTestSupport.rule("tenure", when: "[subscription.tenure >= days(365)]", offer: "{id: promo-monthly-30, type: PROMOTIONAL}"),
            BundleTestSupport.rule("high-value", when: "[\"subscription.price >= constants.highValue[subscription.currency]\"]"),
            top: "constants:\n  highValue: {USD: money('39.99 USD'), EUR: money('39.99 EUR')}")
        let candidate = try BundleTestSupport.bundle(rules: reordered)
        let report = Support.replay(try Support.history(Self.customers, section: .offers, baseline: baseline),
                                    candidate: candidate, reference: baseline)
        // 1 and 2 match both rules; 3 only tenure; 4 only high-value.
        #expect(Support.count(report, .offers, "promo-annual-50", "promo-monthly-30") == 2)
        #expect(report.totals.changed == 2)
        // Swapped, both moved: each changed place relative to the other.
        #expect(report.diff.map { [$0.change.rawValue, $0.rule, $0.detail ?? ""] }
            == [["moved", "tenure", "priority 2 → 1"], ["moved", "high-value", "priority 1 → 2"]])
        BundleDiffTestSupport.expectPositioned(report.diff, baseline: baseline, candidate: candidate)
        let example = try #require(report.transitions.first { $0.changed }?.examples.first)
        #expect(example.baselineRule == "high-value" && example.candidateRule == "tenure")
        #expect(example.candidateExplanation.contains("by rule tenure"))
    }

    @Test("a threshold tightened in one currency changes only that currency's customers")
    func tightenedThresholdInOneCurrency() throws {
        let baseline = try BundleTestSupport.bundle(rules: Self.twoRules)
        let candidate = try BundleTestSupport.bundle(rules: Self.twoRules.replacingOccurrences(
            of: "USD: money('39.99 USD')", with: "USD: money('69.99 USD')"))
        let report = Support.replay(try Support.history(Self.customers, section: .offers, baseline: baseline),
                                    candidate: candidate, reference: baseline)
        // Customer 1 (USD, long tenure) falls to the tenure rule; 4 (USD, short tenure) to nothing;
        // 2 (EUR) keeps the high-value offer.
        #expect(Support.count(report, .offers, "promo-annual-50", "promo-monthly-30") == 1)
        #expect(Support.count(report, .offers, "promo-annual-50", "none", toReason: .noMatch) == 1)
        #expect(Support.count(report, .offers, "promo-annual-50", "promo-annual-50") == 1)
        #expect(report.totals.changed == 2)
        let rule = try #require(report.rules.first { $0.bundle == "candidate" && $0.rule == "high-value" })
        #expect((rule.matches, rule.offers) == (1, 1))
        #expect(report.diff.map { [$0.change.rawValue, $0.kind, $0.rule, $0.detail ?? ""] }
            == [["changed", "constant", "highValue", "USD: 39.99 USD → 69.99 USD"]])
        BundleDiffTestSupport.expectPositioned(report.diff, baseline: baseline, candidate: candidate)
    }

    @Test("a new veto blocks the customers it matches, named in the diff with its line")
    func newVeto() throws {
        let baseline = try BundleTestSupport.bundle(rules: Self.twoRules)
        let vetoed = Self.twoRules.replacingOccurrences(
            of: "  rules:\n", with: "  never:\n    - id: new-subscribers\n      if: subscription.tenure < days(60)\n  rules:\n")
        let candidate = try BundleTestSupport.bundle(rules: vetoed)
        let report = Support.replay(try Support.history(Self.customers, section: .offers, baseline: baseline),
                                    candidate: candidate, reference: baseline)
        #expect(Support.count(report, .offers, "promo-annual-50", "none", toReason: .vetoed) == 1)
        #expect(report.totals.changed == 1)
        let added = try #require(report.diff.first { $0.change == .added })
        #expect((added.kind, added.rule, added.file, added.line) == ("veto", "new-subscribers", "Rules/test.rules.yaml", 8))
        BundleDiffTestSupport.expectPositioned(report.diff, baseline: baseline, candidate: candidate)
        #expect(report.rules.first { $0.bundle == "candidate" && $0.rule == "new-subscribers" }?.matches == 1)
    }

    @Test("a new split salt reshuffles the split exactly as the buckets say")
    func changedSplitSalt() throws {
        func rules(_ salt: String) -> String {
            BundleTestSupport.offersFile("""
                    - id: depth-test
                      when: [event.type == DID_CHANGE_RENEWAL_STATUS]
                      split:
                        unit: originalTransactionId
                        salt: \(salt)
                        variants:
                          - {weight: 50, offer: {id: promo-annual-50, type: PROMOTIONAL}}
                          - {weight: 50, offer: {id: promo-monthly-30, type: PROMOTIONAL}}
                """)
        }
        let baseline = try BundleTestSupport.bundle(rules: rules("depth-2026-11"))
        let candidate = try BundleTestSupport.bundle(rules: rules("depth-2026-12"))
        let facts = (0..<40).map { Support.autoRenewOff("\(70_000_000 + $0)", price: "59.99 USD", at: Support.start + Int64($0) * 1000) }
        let report = Support.replay(try Support.history(facts, section: .offers, baseline: baseline),
                                    candidate: candidate, reference: baseline)
        func variant(_ salt: String, _ unit: Int) -> String {
            Bucketing.bucket(salt: salt, unit: "\(unit)") < 5000 ? "promo-annual-50" : "promo-monthly-30"
        }
        let expectedChanged = (0..<40).count { variant("depth-2026-11", 70_000_000 + $0) != variant("depth-2026-12", 70_000_000 + $0) }
        #expect(expectedChanged > 0)
        #expect(report.totals.changed == expectedChanged)
        #expect(report.diff.map(\.change) == [.changed])
        #expect(report.diff.first?.detail?.contains("salt depth-2026-11") == true)
        BundleDiffTestSupport.expectPositioned(report.diff, baseline: baseline, candidate: candidate)
    }

    @Test("a cap lowered below what was granted is simulated in order: the first grants stand, the rest are capped")
    func loweredCap() throws {
        let baseline = try BundleTestSupport.bundle(rules: Self.twoRules)
        let capped = Self.twoRules.replacingOccurrences(
            of: "  rules:\n", with: "  limits:\n    perOffer:\n      promo-annual-50: {max: 2, within: days(30)}\n  rules:\n")
        let candidate = try BundleTestSupport.bundle(rules: capped)
        let facts = (0..<5).map { Support.autoRenewOff("\(80_000_000 + $0)", price: "59.99 USD", at: Support.start + Int64($0) * Support.day, tenure: "30d") }
        let report = Support.replay(try Support.history(facts, section: .offers, baseline: baseline),
                                    candidate: candidate, reference: baseline)
        #expect(Support.count(report, .offers, "promo-annual-50", "promo-annual-50") == 2)
        #expect(Support.count(report, .offers, "promo-annual-50", "none", toReason: .capped) == 3)
        let rule = try #require(report.rules.first { $0.bundle == "candidate" && $0.rule == "high-value" })
        #expect((rule.offers, rule.capped) == (2, 3))
        #expect(report.diff.map { [$0.change.rawValue, $0.kind, $0.rule, $0.detail ?? ""] }
            == [["added", "limit", "perOffer promo-annual-50", "max 2 within 30d"]])
        BundleDiffTestSupport.expectPositioned(report.diff, baseline: baseline, candidate: candidate)
        #expect(report.offersByDay.map(\.candidate) == [1, 1, 0, 0, 0])
        #expect(report.offersByDay.map(\.baseline) == [1, 1, 1, 1, 1])
    }

    @Test("a refund rule turned from GRANT_FULL to DECLINE, split by what Apple did afterwards")
    func refundRuleWithOutcomes() throws {
        func rules(_ preference: String) -> String {
            BundleTestSupport.refundsFile("""
                    - id: unintended
                      when: ["event.consumptionRequestReason == UNINTENDED_PURCHASE"]
                      respond: {refundPreference: \(preference)}
                """)
        }
        let baseline = try BundleTestSupport.bundle(rules: rules("GRANT_FULL"), catalog: nil)
        let candidate = try BundleTestSupport.bundle(rules: rules("DECLINE"), catalog: nil)
        let facts = (0..<6).map { Support.consumptionRequest("\(60_000 + $0)", at: Support.start + Int64($0) * Support.day) }
        let outcomes = ["REFUND", "REFUND", "REFUND", "REFUND_DECLINED", nil, "REFUND_REVERSED"]
        var cases = try Support.history(facts, section: .refunds, baseline: baseline) { outcomes[$0] }
        cases[4].mayShare = false
        let report = Support.replay(cases, candidate: candidate, reference: baseline)
        #expect(Support.count(report, .refunds, "GRANT_FULL", "DECLINE") == 5)
        #expect(Support.count(report, .refunds, "none", "none", fromReason: .noConsent, toReason: .noConsent) == 1)
        let granted = report.outcomes.first { $0.from == "GRANT_FULL" && $0.to == "DECLINE" && $0.outcome == "REFUND" }
        #expect(granted?.count == 3 && granted?.changed == true)
        #expect(report.outcomes.first { $0.outcome == "REFUND_DECLINED" }?.count == 1)
        #expect(report.diff.map { [$0.change.rawValue, $0.rule, $0.detail ?? ""] } == [["changed", "unintended", "respond GRANT_FULL → DECLINE"]])
        BundleDiffTestSupport.expectPositioned(report.diff, baseline: baseline, candidate: candidate)
        #expect(report.renderText().contains("refunds: GRANT_FULL → DECLINE, then REFUND: 3"))
    }

    @Test("facts a candidate condition cannot evaluate are counted with the rule and its line")
    func candidateErrors() throws {
        let baseline = try BundleTestSupport.bundle(rules: Self.twoRules)
        let candidate = try BundleTestSupport.bundle(rules: BundleTestSupport.offerRules(
            BundleTestSupport.rule("needs-attribute", when: "[customer.attributes.tier == 'gold']"),
            top: "attributes:\n  tier: string"))
        let report = Support.replay(try Support.history(Self.customers, section: .offers, baseline: baseline),
                                    candidate: candidate, reference: baseline)
        #expect(report.totals.errors == 4)
        let error = try #require(report.errors.first)
        #expect((error.rule, error.line, error.count) == ("needs-attribute", 8, 4))
        #expect(report.diff.map { [$0.change.rawValue, $0.kind, $0.rule] } == [
            ["added", "rule", "needs-attribute"], ["removed", "rule", "high-value"], ["removed", "rule", "tenure"],
            ["removed", "constant", "highValue"], ["added", "attribute", "tier"],
        ])
        BundleDiffTestSupport.expectPositioned(report.diff, baseline: baseline, candidate: candidate)
    }
}
