import Foundation
import RuleEngine

/// A replay report with something in every part of the page: a candidate bundle that tightens a
/// threshold in one currency, adds a veto, adds a rule that cannot be evaluated (an attribute the
/// stored facts lack) and turns a refund answer from GRANT_FULL to DECLINE, replayed against what
/// the baseline bundle recorded: twelve offer decisions over six days and five refund requests,
/// most with an outcome.
enum ReplayReportFixture {
    static let start: Int64 = 1_796_126_400_000  // 2026-12-01T12:00:00Z
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 24 * hour

    static let catalog = """
        currencies: [USD, EUR]
        offers:
          - {id: promo-annual-50, type: PROMOTIONAL, productIds: [com.example.pro.annual], subscriptionGroup: pro}
          - {id: promo-monthly-30, type: PROMOTIONAL, productIds: [com.example.pro.monthly, com.example.pro.annual], subscriptionGroup: pro}
        """

    static let baselineRules = """
        schema: 1
        constants:
          highValue: {USD: money('39.99 USD'), EUR: money('39.99 EUR')}
        offers:
          appliesTo: event.type in [DID_CHANGE_RENEWAL_STATUS, EXPIRED]
          rules:
            - id: high-value
              when: ["subscription.price >= constants.highValue[subscription.currency]"]
              offer: {id: promo-annual-50, type: PROMOTIONAL}
            - id: tenure
              when: [subscription.tenure >= days(365)]
              offer: {id: promo-monthly-30, type: PROMOTIONAL}
        refunds:
          appliesTo: event.type == CONSUMPTION_REQUEST
          default: {refundPreference: none}
          rules:
            - id: unintended
              when: ["event.consumptionRequestReason == UNINTENDED_PURCHASE"]
              respond: {refundPreference: GRANT_FULL}
        """

    static let candidateRules = """
        schema: 1
        attributes:
          tier: string
        constants:
          highValue: {USD: money('69.99 USD'), EUR: money('39.99 EUR')}
        offers:
          appliesTo: event.type in [DID_CHANGE_RENEWAL_STATUS, EXPIRED]
          never:
            - id: new-subscribers
              if: subscription.tenure < days(60)
          rules:
            - id: high-value
              when: ["subscription.price >= constants.highValue[subscription.currency]"]
              offer: {id: promo-annual-50, type: PROMOTIONAL}
            - id: tenure
              when: [subscription.tenure >= days(365)]
              offer: {id: promo-monthly-30, type: PROMOTIONAL}
            - id: gold-tier
              when: [customer.attributes.tier == 'gold']
              offer: {id: promo-monthly-30, type: PROMOTIONAL}
        refunds:
          appliesTo: event.type == CONSUMPTION_REQUEST
          default: {refundPreference: none}
          rules:
            - id: unintended
              when: ["event.consumptionRequestReason == UNINTENDED_PURCHASE"]
              respond: {refundPreference: DECLINE}
        """

    /// The offer customers, cycled two a day: price, tenure and what they did after the offer.
    /// Under the candidate the first moves to the tenure rule, the fourth is vetoed and the fifth
    /// (no rule matched) errs on the attribute.
    static let subscribers: [(price: String, tenure: String, outcome: String?)] = [
        ("59.99 USD", "400d", "redeemed"), ("59.99 EUR", "400d", "retained"), ("19.99 USD", "400d", nil),
        ("59.99 USD", "30d", "redeemed"), ("19.99 USD", "100d", nil), ("59.99 EUR", "200d", "retained"),
    ]

    /// Apple's answer to each refund request (nil: not yet); the fourth customer did not consent to
    /// sharing consumption data.
    static let refundOutcomes: [String?] = ["REFUND", "REFUND_DECLINED", "REFUND", nil, "REFUND_REVERSED"]

    /// The report of the candidate replayed over the history the baseline recorded.
    static func report() throws -> ReplayReport {
        let baseline = try bundle(baselineRules)
        let candidate = try bundle(candidateRules)
        var replay = RuleReplay(candidate: candidate, candidateSource: "Rules (candidate)", baseline: .recorded, reference: baseline)
        for replayCase in try offerHistory(baseline) + refundHistory(baseline) { replay.replay(replayCase) }
        return replay.report(since: start, until: start + 6 * day)
    }

    static func bundle(_ rules: String) throws -> RuleBundle {
        try RuleBundle.load(files: [
            BundleSourceFile(path: "Rules/retention.rules.yaml", text: rules),
            BundleSourceFile(path: "Rules/catalog.yaml", text: catalog),
        ])
    }

    private static func offerHistory(_ baseline: RuleBundle) throws -> [ReplayCase] {
        try (0..<12).map { index in
            let subscriber = subscribers[index % subscribers.count]
            let at = start + Int64(index / 2) * day + Int64(index % 2) * 5 * hour
            let id = String(format: "7%07d", index)
            let facts = """
                event: {type: DID_CHANGE_RENEWAL_STATUS, subtype: AUTO_RENEW_DISABLED, environment: PRODUCTION, signedDate: '\(RuleTime.renderTimestamp(at))'}
                subscription: {originalTransactionId: '\(id)', productId: com.example.pro.annual, price: \(subscriber.price), currency: \(subscriber.price.suffix(3)), tenure: \(subscriber.tenure), paidPeriods: 2, eligibleWinBackOfferIds: []}
                customer: {transactions: [], refunds: [], offersRedeemed: [], decisions: []}
                """
            return try recorded(facts, by: baseline, id: "offer-\(index)", section: .offers, subscription: id, at: at,
                                outcome: subscriber.outcome)
        }
    }

    private static func refundHistory(_ baseline: RuleBundle) throws -> [ReplayCase] {
        try refundOutcomes.enumerated().map { index, outcome in
            let at = start + Int64(index) * day + 2 * hour
            let id = String(format: "6%07d", index)
            let facts = """
                event: {type: CONSUMPTION_REQUEST, environment: PRODUCTION, signedDate: '\(RuleTime.renderTimestamp(at))', consumptionRequestReason: UNINTENDED_PURCHASE}
                purchase: {transactionId: '\(id)', originalTransactionId: '\(id)', productId: com.example.pro.annual, productType: AUTO_RENEWABLE, price: 59.99 USD, currency: USD}
                """
            var replayCase = try recorded(facts, by: baseline, id: "refund-\(index)", section: .refunds, subscription: id, at: at,
                                          outcome: outcome)
            replayCase.transactionId = id
            replayCase.mayShare = index != 3
            return replayCase
        }
    }

    /// A stored decision: `facts` decided by `baseline`, as the service would have recorded it.
    private static func recorded(_ facts: String, by baseline: RuleBundle, id: String, section: Decision.Section,
                                 subscription: String, at: Int64, outcome: String?) throws -> ReplayCase {
        let data = try FactData(yaml: facts)
        let decision = baseline.decide(try Facts(data, schema: baseline.schema))
        return ReplayCase(id: id, section: section, originalTransactionId: subscription, decidedAt: at, facts: data,
                          recorded: decision, recordedExplanation: decision.renderText(), outcome: outcome)
    }
}
