import RuleEngine
import Testing

/// The built-in veto `assigned-member`: a group member (`subscription.ownership == ASSIGNED`) gets
/// no offer from a rule that does not read `subscription.ownership`; a rule that reads it decides
/// about members itself; purchasers are not affected.
@Suite("Decision: no offers to group members by default")
struct AssignedMemberVetoTests {
    let base = BundleTestSupport.autoRenewOff
    let member = "subscription: {ownership: ASSIGNED}"

    private func bundle(_ rules: String..., top: String = "") throws -> RuleBundle {
        try BundleTestSupport.bundle(rules: BundleTestSupport.offersFile(rules.joined(separator: "\n"), top: top))
    }

    private let everyone = BundleTestSupport.rule("everyone", when: "[event.subtype == AUTO_RENEW_DISABLED]")

    @Test("a member decided by a rule that does not read ownership is vetoed, with the reason")
    func memberVetoed() throws {
        let decision = try bundle(everyone).decide(try BundleTestSupport.facts(base, member))
        #expect(decision.section == .offers)
        #expect(decision.offer == nil)
        #expect(decision.rule == nil)
        #expect(decision.blockedBy?.id == "assigned-member")
        #expect(decision.blockedBy?.file == "")
        #expect(decision.trace.contains { $0.rule?.id == "everyone" && $0.outcome == .blocked && $0.note?.contains("assigned-member") == true })
        let text = decision.renderText()
        #expect(text.contains("blocked by the built-in veto assigned-member: the customer is a member of a group subscription"))
        #expect(text.contains("rule everyone (line 7): blocked — built-in veto assigned-member"))
        // The same on the fast path (no trace): still recorded.
        #expect(try bundle(everyone).decide(try BundleTestSupport.facts(base, member), explain: false).blockedBy?.id == "assigned-member")
    }

    @Test("purchasers, family members and facts without ownership are not affected")
    func othersUnaffected() throws {
        let bundle = try bundle(everyone)
        for overlay in ["subscription: {ownership: PURCHASED}", "subscription: {ownership: FAMILY_SHARED}", ""] {
            let decision = bundle.decide(try BundleTestSupport.facts(base, overlay))
            #expect(decision.offer?.id == "promo-annual-50", "\(overlay)")
            #expect(decision.blockedBy == nil)
        }
    }

    @Test("a rule that reads subscription.ownership makes its offer to a member")
    func ruleReadingOwnership() throws {
        let forMembers = BundleTestSupport.rule(
            "members", when: "[event.subtype == AUTO_RENEW_DISABLED, subscription.ownership == ASSIGNED]",
            offer: "{id: promo-monthly-30, type: PROMOTIONAL}")
        let decision = try bundle(forMembers, everyone).decide(try BundleTestSupport.facts(base, member))
        #expect(decision.offer?.id == "promo-monthly-30")
        #expect(decision.rule?.id == "members")
        #expect(decision.blockedBy == nil)
        // Purchasers fall through to the rule after it, as ever.
        #expect(try bundle(forMembers, everyone).decide(try BundleTestSupport.facts(base)).rule?.id == "everyone")
    }

    @Test("reading ownership through a segment counts too, even one that excludes nobody")
    func throughASegment() throws {
        let rule = BundleTestSupport.rule("anyone", when: "[event.subtype == AUTO_RENEW_DISABLED, segment.anyHolder]")
        let decision = try bundle(rule, top: "segments:\n  anyHolder: subscription.ownership in [PURCHASED, FAMILY_SHARED, ASSIGNED]")
            .decide(try BundleTestSupport.facts(base, member))
        #expect(decision.offer?.id == "promo-annual-50")
    }

    @Test("the first matching rule decides: a later rule reading ownership does not lift the veto")
    func firstMatchDecides() throws {
        let forMembers = BundleTestSupport.rule("members", when: "[subscription.ownership == ASSIGNED]",
                                                offer: "{id: promo-monthly-30, type: PROMOTIONAL}")
        let decision = try bundle(everyone, forMembers).decide(try BundleTestSupport.facts(base, member))
        #expect(decision.offer == nil)
        #expect(decision.blockedBy?.id == "assigned-member")
    }

    @Test("a shadow rule is screened the same way: no shadow match for a member")
    func shadowRules() throws {
        let shadow = BundleTestSupport.rule("candidate", when: "[event.subtype == AUTO_RENEW_DISABLED]", extra: "mode: shadow")
        let memberDecision = try bundle(shadow).decide(try BundleTestSupport.facts(base, member))
        #expect(memberDecision.shadowMatches.isEmpty)
        #expect(memberDecision.blockedBy == nil)
        #expect(memberDecision.trace.contains { $0.rule?.id == "candidate" && $0.outcome == .blocked })
        #expect(try bundle(shadow).decide(try BundleTestSupport.facts(base)).shadowMatches.map(\.rule.id) == ["candidate"])
    }

    @Test("a held-out member is vetoed too: no counterfactual offer")
    func heldOut() throws {
        let decision = try bundle(everyone, top: "holdout: {percent: 5, unit: originalTransactionId, salt: retention-holdout-2026}")
            .decide(try BundleTestSupport.facts(base, "subscription: {originalTransactionId: '90000013', ownership: ASSIGNED}"))
        #expect(decision.heldOut)
        #expect(decision.counterfactual == nil)
        #expect(decision.blockedBy?.id == "assigned-member")
    }

    @Test("rule tests can expect it, and no rule or veto may take its id")
    func testsAndReservedId() throws {
        let tests = """
            rules: test.rules.yaml
            fixtures:
              off: {event: {type: DID_CHANGE_RENEWAL_STATUS, subtype: AUTO_RENEW_DISABLED, signedDate: 2026-12-15T12:00:00Z}, subscription: {productId: com.example.pro.annual, originalTransactionId: '1'}}
            tests:
              - name: a member gets nothing
                given: {from: off, subscription: {ownership: ASSIGNED}}
                expect: {offer: none, blockedBy: assigned-member}
              - name: a purchaser gets the offer
                given: {from: off, subscription: {ownership: PURCHASED}}
                expect: {offer: promo-annual-50, rule: everyone}
            """
        let bundle = try BundleTestSupport.bundle(rules: BundleTestSupport.offersFile(everyone), tests: tests)
        #expect(RuleTestRunner.run(bundle: bundle, requireCoverage: true).summaryLine == "2 passed, 0 failed")
        let taken = BundleTestSupport.offersFile(everyone, section: "  never:\n    - {id: assigned-member, if: subscription.isInBillingRetry}")
        #expect(BundleTestSupport.errors(rules: taken).map(\.message)
            == ["id 'assigned-member' is the built-in veto of offers to group members; choose another id"])
        // The service's guard on refund requests about a member's transaction is reserved too.
        let guardTaken = BundleTestSupport.offersFile(everyone, section: "  never:\n    - {id: assigned-transaction, if: subscription.isInBillingRetry}")
        #expect(BundleTestSupport.errors(rules: guardTaken).map(\.message)
            == ["id 'assigned-transaction' is the built-in guard on refund requests about a group member's transaction; choose another id"])
    }
}

/// The veto on the cancel page: an answer with an offer or another plan is blocked for a member;
/// a plain message is not.
@Suite("Retention: no cancel-page offers to group members by default")
struct AssignedMemberRetentionTests {
    private let rules = RetentionTestSupport.rulesFile("""
            - id: stay-offer
              when: [subscription.productId == 'com.example.pro.annual', subscription.paidPeriods >= 2]
              answer: {message: stay-annual, offer: {id: promo-annual-50, type: PROMOTIONAL}}
            - id: why-stay
              answer: {message: why-stay}
        """)

    @Test("an answer with an offer is blocked for a member, and given to a purchaser")
    func offerBlocked() throws {
        let bundle = try RetentionTestSupport.bundle(rules: rules)
        let member = bundle.decideRetention(try RetentionTestSupport.facts("subscription: {ownership: ASSIGNED}"))
        #expect(member.section == .retention)
        #expect(member.answer == nil)
        #expect(member.blockedBy?.id == "assigned-member")
        let purchaser = bundle.decideRetention(try RetentionTestSupport.facts("subscription: {ownership: PURCHASED}"))
        #expect(purchaser.answer?.offer?.id == "promo-annual-50")
    }

    @Test("another plan is blocked for a member; a plain message is not")
    func planAndMessage() throws {
        let bundle = try RetentionTestSupport.bundle(rules: RetentionTestSupport.rulesFile("""
                - id: switch
                  when: [subscription.paidPeriods >= 5]
                  answer: {message: switch-monthly, alternateProduct: {productId: com.example.pro.monthly}}
                - id: why-stay
                  answer: {message: why-stay}
            """))
        let switching = bundle.decideRetention(try RetentionTestSupport.facts("subscription: {ownership: ASSIGNED, paidPeriods: 6}"))
        #expect(switching.blockedBy?.id == "assigned-member")
        #expect(switching.answer == nil)
        let message = bundle.decideRetention(try RetentionTestSupport.facts("subscription: {ownership: ASSIGNED}"))
        #expect(message.answer?.message == "why-stay")
        #expect(message.blockedBy == nil)
    }
}
