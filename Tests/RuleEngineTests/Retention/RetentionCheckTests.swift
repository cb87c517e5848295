import RuleEngine
import Testing

@Suite("Retention: what the checker refuses")
struct RetentionCheckTests {
    private func errors(_ rules: String, top: String = "", section: String = "") -> [String] {
        RetentionTestSupport.errors(rules: RetentionTestSupport.rulesFile(rules, top: top, section: section))
    }

    @Test("a clean section loads, with its rules in ruleReferences")
    func clean() throws {
        let bundle = try RetentionTestSupport.bundle(rules: RetentionTestSupport.rulesFile("""
                - id: annual-offer
                  when: [subscription.productId == 'com.example.pro.annual']
                  answer: {message: stay-annual, offer: {id: promo-annual-50, type: PROMOTIONAL}}
                - id: annual-switch
                  when: [subscription.productId == 'com.example.pro.annual']
                  answer: {message: switch-monthly, alternateProduct: {productId: com.example.pro.monthly-commit, billingPlanType: MONTHLY}}
                - id: plain
                  answer: {message: why-stay}
            """, section: "  never:\n    - {id: no-refunders, if: size(customer.refunds) > 0}"))
        #expect(bundle.retention?.rules.count == 3)
        #expect(bundle.ruleReferences.map(\.id) == ["no-refunders", "annual-offer", "annual-switch", "plain"])
    }

    @Test("unknown message, with a suggestion")
    func unknownMessage() {
        #expect(errors("    - {id: r1, answer: {message: stay-anual}}").contains("unknown message 'stay-anual': messages.yaml does not declare it"))
    }

    @Test("offers: known, PROMOTIONAL, for the products the rule allows")
    func offers() {
        #expect(errors("    - {id: r1, answer: {message: stay-annual, offer: {id: promo-x, type: PROMOTIONAL}}}")
            .contains { $0.hasPrefix("unknown offer 'promo-x'") })
        #expect(errors("    - {id: r1, answer: {message: stay-annual, offer: {id: winback-a, type: WIN_BACK}}}")
            .contains("a realtime answer offers a PROMOTIONAL offer (signed by Verdict), not WIN_BACK"))
        #expect(errors("    - {id: r1, answer: {message: stay-annual, offer: {id: winback-a, type: PROMOTIONAL}}}")
            .contains { $0.contains("winback-a is a WIN_BACK offer") })
        #expect(errors("""
                - id: r1
                  when: [subscription.productId == 'com.example.pro.monthly']
                  answer: {message: stay-annual, offer: {id: promo-annual-50, type: PROMOTIONAL}}
            """).contains("offer promo-annual-50 is not for 'com.example.pro.monthly', which this rule's conditions allow"))
    }

    @Test("alternate products: known, another product, same group")
    func alternateProducts() {
        #expect(errors("    - {id: r1, answer: {message: switch-monthly, alternateProduct: {productId: com.example.nope}}}")
            .contains("unknown product 'com.example.nope': catalog.yaml names it in no offer and no 'products' entry"))
        #expect(errors("""
                - id: r1
                  when: [subscription.productId == 'com.example.pro.annual']
                  answer: {message: switch-monthly, alternateProduct: {productId: com.example.lite.monthly}}
            """).contains("the alternate product com.example.lite.monthly (group lite) is outside the group of 'com.example.pro.annual', which this rule's conditions allow"))
        #expect(errors("""
                - id: r1
                  when: [subscription.productId == 'com.example.pro.annual']
                  answer: {message: switch-monthly, alternateProduct: {productId: com.example.pro.annual}}
            """).contains("the alternate product com.example.pro.annual is the subscription's own product, which this rule's conditions allow"))
        #expect(errors("    - {id: r1, answer: {message: switch-monthly, alternateProduct: {productId: com.example.pro.monthly, billingPlanType: WEEKLY}}}")
            .contains { $0.contains("billingPlanType") && $0.contains("WEEKLY") })
    }

    @Test("answer shape: one of answer or split, offer or alternate product, signature only with an offer")
    func shape() {
        #expect(errors("    - {id: r1}").contains("rule r1 needs exactly one of 'answer' or 'split'"))
        #expect(errors("    - {id: r1, answer: {message: stay-annual, offer: {id: promo-annual-50, type: PROMOTIONAL}, alternateProduct: {productId: com.example.pro.monthly}}}")
            .contains("an answer has either 'offer' or 'alternateProduct', not both"))
        #expect(errors("    - {id: r1, answer: {message: stay-annual, signature: V1}}")
            .contains("'signature' says how an offer is signed; this answer has no offer"))
        #expect(errors("    - {id: r1, answer: {message: stay-annual, offer: {id: promo-annual-50, type: PROMOTIONAL}, signature: V3}}")
            .contains { $0.contains("V3") })
        #expect(errors("    - {id: r1, answer: {offer: {id: promo-annual-50, type: PROMOTIONAL}}}").contains { $0.contains("message") })
    }

    @Test("splits sum to 100; ids are unique across sections")
    func splitsAndIds() {
        #expect(errors("""
                - id: r1
                  split:
                    unit: originalTransactionId
                    salt: s
                    variants:
                      - {weight: 50, answer: {message: stay-annual}}
                      - {weight: 40, answer: {message: why-stay}}
            """).contains("split weights add up to 90, not 100"))
        let rules = """
            schema: 1
            offers:
              appliesTo: event.type == EXPIRED
              rules:
                - {id: same, offer: {id: promo-annual-50, type: PROMOTIONAL}}
            retention:
              rules:
                - {id: same, answer: {message: stay-annual}}
            """
        #expect(RetentionTestSupport.errors(rules: rules).contains { $0.hasPrefix("id 'same' is already used") })
    }
}
