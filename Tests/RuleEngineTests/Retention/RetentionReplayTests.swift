import RuleEngine
import Testing

/// Realtime answers replayed: a candidate that answers differently on the cancel page shows as
/// a transition of the retention section, decided with the retention section (not as a
/// notification), with its rules counted.
@Suite("Retention: replayed realtime answers")
struct RetentionReplayTests {
    @Test("a changed answer is a retention transition; unchanged ones stay")
    func changedAnswers() throws {
        let baseline = try RetentionTestSupport.bundle(rules: RetentionSemanticsTests.rules)
        let candidate = try RetentionTestSupport.bundle(rules: RetentionTestSupport.rulesFile("""
                - id: annual-switch
                  when: [subscription.productId == 'com.example.pro.annual']
                  answer: {message: switch-monthly, alternateProduct: {productId: com.example.pro.monthly-commit}}
                - id: anyone
                  answer: {message: why-stay}
            """))
        var cases: [ReplayCase] = []
        for (index, overlay) in ["", "subscription: {paidPeriods: 1}", "subscription: {productId: com.example.pro.monthly}"].enumerated() {
            let data = try FactData(yaml: RetentionTestSupport.realtime).deepMerged(with: FactData(yaml: overlay))
            let decision = baseline.decideRetention(try Facts(data, schema: baseline.schema))
            cases.append(ReplayCase(
                id: "r\(index)", section: .retention, originalTransactionId: "9000000\(index)",
                decidedAt: ReplayTestSupport.start + Int64(index) * ReplayTestSupport.day, facts: data, recorded: decision,
                recordedExplanation: decision.renderText(), mayShare: true, outcome: nil))
        }
        let report = ReplayTestSupport.replay(cases, candidate: candidate, reference: baseline)
        #expect(ReplayTestSupport.count(report, .retention, "stay-annual+promo-annual-50", "switch-monthly→com.example.pro.monthly-commit") == 1)
        #expect(ReplayTestSupport.count(
            report, .retention, "switch-monthly→com.example.pro.monthly-commit", "switch-monthly→com.example.pro.monthly-commit") == 1)
        #expect(ReplayTestSupport.count(report, .retention, "why-stay", "why-stay") == 1)
        #expect(report.sectionTotals.first { $0.section == .retention }?.totals.changed == 1)
        #expect(report.rules.contains { $0.section == .retention && $0.rule == "anyone" && $0.bundle == "candidate" && $0.matches == 1 })
        // The diff names the retention rules that changed.
        #expect(report.diff.contains { $0.section == .retention && $0.rule == "annual-offer" && $0.change == .removed })
    }
}
