import Foundation
import RuleEngine
import Testing

@Suite("Retention: how a realtime request is answered")
struct RetentionSemanticsTests {
    static let rules = RetentionTestSupport.rulesFile("""
            - id: annual-offer
              when: [subscription.productId == 'com.example.pro.annual', subscription.paidPeriods >= 2]
              answer: {message: stay-annual, offer: {id: promo-annual-50, type: PROMOTIONAL}}
            - id: annual-switch
              when: [subscription.productId == 'com.example.pro.annual']
              answer: {message: switch-monthly, alternateProduct: {productId: com.example.pro.monthly-commit, billingPlanType: MONTHLY}}
            - id: anyone
              answer: {message: why-stay}
        """)

    private func decide(_ overlay: String = "", rules: String = Self.rules, states: any RetentionMessageStates = AllMessagesApproved(),
                        limits: any LimitsPort = NoLimitsRecorded()) throws -> Decision {
        let bundle = try RetentionTestSupport.bundle(rules: rules)
        return bundle.decideRetention(try RetentionTestSupport.facts(overlay), limits: limits, messageStates: states)
    }

    @Test("the first fitting rule answers: message in the customer's locale, offer signed V2 by default")
    func firstRule() throws {
        let decision = try decide()
        #expect(decision.section == .retention)
        #expect(decision.rule?.id == "annual-offer")
        let answer = try #require(decision.answer)
        #expect(answer.message == "stay-annual" && answer.locale == "en-US")
        #expect(answer.offer?.id == "promo-annual-50" && answer.signature == .v2)
        #expect(decision.offer?.id == "promo-annual-50", "the offer is the decision's offer too (caps, outcomes)")
        #expect(answer.messageIdentifier == RetentionMessages.identifier(
            id: "stay-annual", locale: "en-US", header: "Stay for less", body: "Half off your next year if you stay."))
        #expect(decision.renderText().contains(
            "result: answer message stay-annual (en-US) with offer promo-annual-50 (PROMOTIONAL) by rule annual-offer"))
    }

    @Test("the locale picks the text; a message without the customer's language falls through")
    func locales() throws {
        #expect(try decide("event: {userLocale: de-AT}").answer?.locale == "de-DE")
        let french = try decide("event: {userLocale: fr-FR}")
        #expect(french.answer == nil)
        let note = french.trace.first { $0.rule?.id == "annual-offer" }?.note
        #expect(note == "message stay-annual has no text for fr-FR")
    }

    @Test("a message Apple has not approved falls through to the next rule")
    func notApproved() throws {
        let bundle = try RetentionTestSupport.bundle(rules: Self.rules)
        let approved = Set(bundle.messages.messages.filter { $0.id != "stay-annual" }.flatMap { $0.locales.map(\.identifier) })
        let decision = try decide(states: ApprovedMessages(approved))
        #expect(decision.rule?.id == "annual-switch")
        #expect(decision.answer?.alternateProduct == "com.example.pro.monthly-commit")
        #expect(decision.answer?.billingPlanType == "MONTHLY")
        #expect(decision.offer == nil)
        #expect(decision.trace.first { $0.rule?.id == "annual-offer" }?.note == "message stay-annual (en-US) is not approved by Apple")
        #expect(try decide(states: ApprovedMessages([])).answer == nil, "nothing approved: the App Store falls back")
    }

    @Test("an offer not for the customer's product and an alternate product outside the group fall through")
    func runtimeFit() throws {
        let rules = RetentionTestSupport.rulesFile("""
                - {id: offer, answer: {message: stay-annual, offer: {id: promo-annual-50, type: PROMOTIONAL}}}
                - {id: switch, answer: {message: switch-monthly, alternateProduct: {productId: com.example.lite.monthly}}}
                - {id: own, answer: {message: switch-monthly, alternateProduct: {productId: com.example.pro.monthly}}}
            """)
        let decision = try decide("subscription: {productId: com.example.pro.monthly}", rules: rules)
        #expect(decision.answer == nil)
        let notes = decision.trace.compactMap(\.note)
        #expect(notes.contains("offer promo-annual-50 is not for the customer's product"))
        #expect(notes.contains("com.example.lite.monthly is not another product of the subscription's group"))
        #expect(notes.contains("com.example.pro.monthly is not another product of the subscription's group"))
    }

    @Test("holdout: no answer, the counterfactual is recorded")
    func holdout() throws {
        let top = "holdout: {percent: 80, unit: originalTransactionId, salt: retention-holdout-2026}"
        let rules = RetentionTestSupport.rulesFile("    - {id: anyone, answer: {message: why-stay}}", top: top)
        let decision = try decide(rules: rules)
        #expect(decision.heldOut && decision.answer == nil)
        #expect(decision.counterfactualAnswer?.message == "why-stay")
        #expect(decision.renderText().contains("counterfactual: would have answered message why-stay (en-US) by rule anyone"))
        #expect(decision.renderText().contains("result: no answer (held out): the App Store falls back"))
    }

    @Test("vetoes, shadow rules and offer limits work as in the offers section")
    func sharedMachinery() throws {
        let vetoed = try decide(rules: RetentionTestSupport.rulesFile(
            "    - {id: anyone, answer: {message: why-stay}}", section: "  never:\n    - {id: always, if: 'true'}"))
        #expect(vetoed.blockedBy?.id == "always" && vetoed.answer == nil)

        let shadow = try decide(rules: RetentionTestSupport.rulesFile("""
                - {id: candidate, answer: {message: stay-annual}, mode: shadow}
                - {id: anyone, answer: {message: why-stay}}
            """))
        #expect(shadow.shadowMatches.first?.answer?.message == "stay-annual")
        #expect(shadow.answer?.message == "why-stay")

        let capped = try decide(
            rules: RetentionTestSupport.rulesFile("""
                    - {id: offer, answer: {message: stay-annual, offer: {id: promo-annual-50, type: PROMOTIONAL}}}
                    - {id: anyone, answer: {message: why-stay}}
                """, section: "  limits:\n    perOffer:\n      promo-annual-50: {max: 1, within: 30d}"),
            limits: InMemoryLimits(fixed: [.offer("promo-annual-50"): 1]))
        #expect(capped.answer?.message == "why-stay", "a message without an offer counts against no limit")
        #expect(capped.limits.first?.exceeded == true)
    }

    @Test("splits bucket answers; V1 signature when the rule says so")
    func splitAndSignature() throws {
        let rules = RetentionTestSupport.rulesFile("""
                - id: ab
                  split:
                    unit: originalTransactionId
                    salt: ab-2026
                    variants:
                      - {weight: 50, answer: {message: stay-annual, offer: {id: promo-annual-50, type: PROMOTIONAL}, signature: V1}}
                      - {weight: 50, answer: {message: switch-monthly, alternateProduct: {productId: com.example.pro.monthly-commit}}}
            """)
        let decision = try decide(rules: rules)
        let bucket = try #require(decision.buckets.first { $0.purpose == "split:ab" })
        if bucket.threshold == 0 {
            #expect(decision.answer?.signature == .v1)
        } else {
            #expect(decision.answer?.alternateProduct == "com.example.pro.monthly-commit")
        }
        #expect(bucket.bucket == Bucketing.bucket(salt: "ab-2026", unit: "90000000"))
    }

    @Test("the notification path never runs the retention section")
    func notForNotifications() throws {
        let bundle = try RetentionTestSupport.bundle(rules: Self.rules)
        let decision = bundle.decide(try RetentionTestSupport.facts("event: {type: DID_CHANGE_RENEWAL_STATUS, subtype: AUTO_RENEW_DISABLED}"))
        #expect(decision.section == nil && decision.answer == nil)
    }

    @Test("the decision round-trips through JSON with its answer")
    func json() throws {
        let decision = try decide()
        let decoded = try JSONDecoder().decode(Decision.self, from: JSONEncoder().encode(decision))
        #expect(decoded == decision)
    }
}
