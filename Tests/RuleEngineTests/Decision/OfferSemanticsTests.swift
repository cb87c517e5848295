import Foundation
import RuleEngine
import Testing

@Suite("Decision: offers semantics")
struct OfferSemanticsTests {
    let base = BundleTestSupport.autoRenewOff

    @Test("a held-out unit gets no offer, and the offer it would have got is logged")
    func holdoutCounterfactual() throws {
        let bundle = try BundleTestSupport.bundle(rules: BundleTestSupport.offerRule(
            when: "[event.subtype == AUTO_RENEW_DISABLED]", top: "holdout: {percent: 5, unit: originalTransactionId, salt: retention-holdout-2026}"))
        let heldOut = bundle.decide(try BundleTestSupport.facts(base, "subscription: {originalTransactionId: '90000013'}"))
        #expect(heldOut.heldOut)
        #expect(heldOut.offer == nil)
        #expect(heldOut.counterfactual?.id == "promo-annual-50")
        #expect(heldOut.counterfactualRule?.id == "r1")
        #expect(heldOut.buckets.first?.bucket == 119)
        #expect(heldOut.buckets.first?.threshold == 500)
        let treated = bundle.decide(try BundleTestSupport.facts(base))
        #expect(!treated.heldOut)
        #expect(treated.offer?.id == "promo-annual-50")
        #expect(treated.buckets.first?.bucket == 7456)
    }

    @Test("a true veto blocks every offer")
    func vetoBlocks() throws {
        let bundle = try vetoed(by: "no-recent-refunders", if: "customer.refunds.exists(r, r.date > now - days(90))")
        let blocked = bundle.decide(try BundleTestSupport.facts(base, "customer: {refunds: [{date: 2026-11-25}]}"))
        #expect(blocked.offer == nil)
        #expect(blocked.blockedBy?.id == "no-recent-refunders")
        #expect(blocked.trace.contains { $0.kind == .veto && $0.outcome == .blocked })
        let clear = bundle.decide(try BundleTestSupport.facts(base, "customer: {refunds: [{date: 2025-01-01}]}"))
        #expect(clear.offer?.id == "promo-annual-50")
        #expect(clear.blockedBy == nil)
    }

    @Test("a veto that cannot be evaluated blocks (fail closed)")
    func erroringVetoBlocks() throws {
        let bundle = try vetoed(by: "cheap-prices", if: "subscription.price < money('1.00 USD')")
        let decision = bundle.decide(try BundleTestSupport.facts(base, "subscription: {price: 59.99 EUR}"))
        #expect(decision.offer == nil)
        #expect(decision.blockedBy?.id == "cheap-prices")
        #expect(decision.errors.first?.rule.id == "cheap-prices")
    }

    @Test("a rule outside its active window is skipped; now is the event's time")
    func activeWindow() throws {
        let bundle = try BundleTestSupport.bundle(rules: BundleTestSupport.offersFile("""
                - id: december
                  active: {from: 2026-12-01T00:00:00Z, until: 2027-01-31T23:59:59Z}
                  when: [event.subtype == AUTO_RENEW_DISABLED]
                  offer: {id: promo-annual-50, type: PROMOTIONAL}
            """))
        #expect(bundle.decide(try BundleTestSupport.facts(base)).rule?.id == "december")
        let before = bundle.decide(try BundleTestSupport.facts(base, "event: {signedDate: 2026-11-30T23:00:00Z}"))
        #expect(before.rule == nil)
        #expect(before.trace.contains { $0.rule?.id == "december" && $0.outcome == .inactive })
        let explicitNow = bundle.decide(try BundleTestSupport.facts(base), now: RuleTime.parseTimestamp("2027-02-01"))
        #expect(explicitNow.rule == nil)
    }

    private var limitedRules: String {
        BundleTestSupport.offersFile("""
                - id: big-discount
                  when: [event.subtype == AUTO_RENEW_DISABLED]
                  offer: {id: promo-annual-50, type: PROMOTIONAL}
                - id: small-discount
                  when: [event.subtype == AUTO_RENEW_DISABLED]
                  offer: {id: promo-monthly-30, type: PROMOTIONAL}
            """, section: """
              limits:
                perCustomer: {max: 2, within: days(180)}
                perOffer:
                  promo-annual-50: {max: 500, within: 1d}
            """)
    }

    @Test("an offer over its per-offer budget falls through to the next rule")
    func perOfferLimitFallsThrough() throws {
        let bundle = try BundleTestSupport.bundle(rules: limitedRules)
        let limits = InMemoryLimits(fixed: [.offer("promo-annual-50"): 500])
        let decision = bundle.decide(try BundleTestSupport.facts(base), limits: limits)
        #expect(decision.rule?.id == "small-discount")
        let check = try #require(decision.limits.first { $0.kind == "perOffer" })
        #expect((check.used, check.max, check.exceeded, check.within.description) == (500, 500, true, "1d"))
        #expect(decision.trace.contains { $0.rule?.id == "big-discount" && $0.outcome == .limitExceeded })
    }

    @Test("a customer over the per-customer limit gets nothing from any rule")
    func perCustomerLimit() throws {
        let bundle = try BundleTestSupport.bundle(rules: limitedRules)
        let limits = InMemoryLimits()
        let now = try #require(RuleTime.parseTimestamp("2026-12-15T12:00:00Z"))
        limits.recordOffer("promo-monthly-30", customer: "90000000", at: now - RuleTime.day * 10)
        #expect(bundle.decide(try BundleTestSupport.facts(base), limits: limits).offer?.id == "promo-annual-50")
        limits.recordOffer("promo-monthly-30", customer: "90000000", at: now - RuleTime.day * 20)
        let decision = bundle.decide(try BundleTestSupport.facts(base), limits: limits)
        #expect(decision.offer == nil)
        #expect(decision.limits.map(\.kind) == ["perCustomer", "perCustomer"])
        #expect(decision.limits.allSatisfy { $0.used == 2 && $0.exceeded })
    }

    @Test("onLimit: stop ends the decision with no offer")
    func onLimitStop() throws {
        let rules = limitedRules.replacingOccurrences(
            of: "offer: {id: promo-annual-50, type: PROMOTIONAL}", with: "offer: {id: promo-annual-50, type: PROMOTIONAL}\n      onLimit: stop")
        let bundle = try BundleTestSupport.bundle(rules: rules)
        let decision = bundle.decide(try BundleTestSupport.facts(base), limits: InMemoryLimits(fixed: [.offer("promo-annual-50"): 500]))
        #expect(decision.offer == nil)
        #expect(decision.rule == nil)
    }

    /// A bundle whose one rule offers promo-annual-50 when auto-renew is turned off, under one veto.
    private func vetoed(by id: String, if condition: String) throws -> RuleBundle {
        try BundleTestSupport.bundle(rules: BundleTestSupport.offerRule(
            when: "[event.subtype == AUTO_RENEW_DISABLED]", section: """
              never:
                - id: \(id)
                  if: \(condition)
            """))
    }
}
