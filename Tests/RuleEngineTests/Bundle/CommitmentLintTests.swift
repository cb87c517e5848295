import RuleEngine
import Testing

/// The commitment lint: an offer rule that can fire when a subscriber turns auto-renew off, and
/// does not read `subscription.commitment` (nor does a veto of its section), is warned about at
/// its id.
@Suite("Bundle: the commitment lint")
struct CommitmentLintTests {
    private let guardCondition = "'!has(subscription.commitment) || subscription.commitment.period == subscription.commitment.periods'"

    private func warnings(_ rules: String) -> [RuleDiagnostic] {
        BundleTestSupport.diagnostics(rules: rules).filter { $0.severity == .warning }
    }

    @Test("a rule on AUTO_RENEW_DISABLED that ignores commitments is warned about, at its id")
    func warns() throws {
        let rules = BundleTestSupport.offerRule(id: "annual-leavers", when: "[event.subtype == AUTO_RENEW_DISABLED]")
        let warning = try #require(warnings(rules).first)
        #expect(warnings(rules).count == 1)
        #expect(warning.message.hasPrefix("rule annual-leavers can make an offer when a subscriber turns auto-renew off (AUTO_RENEW_DISABLED) without reading subscription.commitment"))
        #expect((warning.line, warning.column) == (7, 11))
        #expect(warning.help?.contains("veto of the offers section") == true)
        // A warning does not stop the bundle from loading.
        #expect(BundleTestSupport.errors(rules: rules).isEmpty)
    }

    @Test("a rule whose event is not pinned down (any notification of the section) is warned about")
    func unconstrainedWarns() {
        let rules = BundleTestSupport.offerRule(when: "[subscription.paidPeriods >= 2]")
        #expect(warnings(rules).count == 1)
        let shadow = BundleTestSupport.offerRule(when: "[subscription.paidPeriods >= 2]", extra: "mode: shadow")
        #expect(warnings(shadow).count == 1)
    }

    @Test("reading subscription.commitment in the rule, in a segment or in a veto of the section guards it")
    func guarded() {
        #expect(warnings(BundleTestSupport.offerRule(when: "[event.subtype == AUTO_RENEW_DISABLED, \(guardCondition)]")).isEmpty)
        #expect(warnings(BundleTestSupport.offerRule(
            when: "[event.subtype == AUTO_RENEW_DISABLED, segment.notCommitted]",
            top: "segments:\n  notCommitted: \"!has(subscription.commitment)\"")).isEmpty)
        #expect(warnings(BundleTestSupport.offerRule(
            when: "[event.subtype == AUTO_RENEW_DISABLED]",
            section: "  never:\n    - id: mid-commitment\n      if: has(subscription.commitment) && subscription.commitment.period < 12"))
            .isEmpty)
        // A veto that reads something else is no guard.
        #expect(warnings(BundleTestSupport.offerRule(
            when: "[event.subtype == AUTO_RENEW_DISABLED]",
            section: "  never:\n    - id: retrying\n      if: subscription.isInBillingRetry")).count == 1)
    }

    @Test("a rule that cannot fire on AUTO_RENEW_DISABLED, or is off, is not warned about")
    func otherEvents() {
        #expect(warnings(BundleTestSupport.offerRule(when: "[event.type == EXPIRED]")).isEmpty)
        #expect(warnings(BundleTestSupport.offerRule(when: "[event.subtype == DECREASE_QUANTITY]")).isEmpty)
        #expect(warnings(BundleTestSupport.offerRule(when: "['event.subtype in [VOLUNTARY, BILLING_RETRY]']")).isEmpty)
        #expect(warnings(BundleTestSupport.offerRule(when: "[event.subtype != AUTO_RENEW_DISABLED]")).isEmpty)
        #expect(warnings(BundleTestSupport.offerRule(when: "[event.subtype == AUTO_RENEW_DISABLED]", extra: "mode: off")).isEmpty)
        // A segment's comparisons count as the rule's own; an `||` decides nothing.
        #expect(warnings(BundleTestSupport.offerRule(
            when: "[segment.lapsed]", top: "segments:\n  lapsed: event.type == EXPIRED && subscription.paidPeriods >= 2")).isEmpty)
        #expect(warnings(BundleTestSupport.offerRule(
            when: "['event.type == EXPIRED || subscription.paidPeriods >= 2']")).count == 1)
        // The section's appliesTo counts with the rule's own conditions.
        let expiredOnly = """
            schema: 1
            offers:
              appliesTo: event.type == EXPIRED
              rules:
                - id: lapsed
                  when: [subscription.paidPeriods >= 2]
                  offer: {id: promo-annual-50, type: PROMOTIONAL}
            """
        #expect(warnings(expiredOnly).isEmpty)
    }
}
