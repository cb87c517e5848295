import Foundation
import RuleEngine

/// The rule bundle's checker and engine as a fuzz target: what `verdict rules check` and every
/// reload read (YAML, then the expressions inside it), and — for a bundle that checks clean — a
/// decision on fixed facts, which evaluates whatever expressions the input made.
///
/// The first byte of an input picks what the rest is:
///
/// | first byte mod 4 | the rest of the input |
/// |---|---|
/// | 0 | a whole `*.rules.yaml` file, beside a fixed catalog |
/// | 1 | one condition expression, as the only condition of a fixed offer rule |
/// | 2 | a `messages.yaml`, beside a fixed rules file whose `retention:` rule answers with message `m` |
/// | 3 | a `catalog.yaml`, beside a fixed rules file offering `promo` |
///
/// Every input must end in diagnostics or a decision; a trap is a finding.
public struct RulesFuzzTarget: Sendable {
    /// What one input came to (for replays and tests; the fuzzer ignores it).
    public enum Outcome: Equatable, Sendable {
        case refused(errors: Int)
        case decided(rule: String?)
    }

    static let catalog = """
        currencies: [USD, EUR]
        offers:
          - {id: promo, type: PROMOTIONAL, productIds: [com.example.pro.annual], subscriptionGroup: pro}
          - {id: winback, type: WIN_BACK, productIds: [com.example.pro.monthly], subscriptionGroup: pro}
        products:
          - {id: com.example.pro.monthly, subscriptionGroup: pro}
        """

    static let offerRules = """
        schema: 1
        offers:
          appliesTo: event.type in [DID_CHANGE_RENEWAL_STATUS, EXPIRED]
          rules:
            - id: r
              when: [CONDITION]
              offer: {id: promo, type: PROMOTIONAL}
        """

    static let retentionRules = """
        schema: 1
        retention:
          rules:
            - {id: r, answer: {message: m}}
        """

    static let messages = """
        messages:
          - {id: m, locales: {en-US: {header: Stay, body: Keep it all.}}}
        """

    /// An annual subscriber turning auto-renew off, with a little history.
    static let facts = """
        event: {type: DID_CHANGE_RENEWAL_STATUS, subtype: AUTO_RENEW_DISABLED, environment: PRODUCTION, signedDate: 2026-12-15T12:00:00Z}
        subscription: {originalTransactionId: '90000000', productId: com.example.pro.annual, price: 59.99 USD, currency: USD, tenure: 400d, paidPeriods: 2, eligibleWinBackOfferIds: [winback]}
        customer:
          transactions:
            - {productId: com.example.pro.annual, price: 59.99 USD, currency: USD, purchaseDate: 2025-12-01}
          refunds: []
          offersRedeemed: []
          decisions: []
        """

    public init() {}

    /// Runs one input through the checker and, when it checks clean, the engine.
    public func run(_ input: Data) -> Outcome {
        guard let mode = input.first else { return .refused(errors: 0) }
        let text = String(decoding: input.dropFirst(), as: UTF8.self)
        var files: [BundleSourceFile]
        switch mode % 4 {
        case 0:
            files = [.init(path: "f.rules.yaml", text: text), .init(path: "catalog.yaml", text: Self.catalog)]
        case 1:
            // A double-quoted YAML scalar (JSON's escapes) keeps the expression exactly as written.
            let quoted = (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
            files = [.init(path: "f.rules.yaml", text: Self.offerRules.replacingOccurrences(of: "CONDITION", with: quoted)),
                     .init(path: "catalog.yaml", text: Self.catalog)]
        case 2:
            files = [.init(path: "f.rules.yaml", text: Self.retentionRules), .init(path: "catalog.yaml", text: Self.catalog),
                     .init(path: "messages.yaml", text: text)]
        default:
            files = [.init(path: "f.rules.yaml", text: Self.offerRules.replacingOccurrences(of: "CONDITION", with: "'true'")),
                     .init(path: "catalog.yaml", text: text)]
        }
        let result = RuleBundleChecker.check(files)
        guard let bundle = result.bundle else {
            return .refused(errors: result.diagnostics.filter { $0.severity == .error }.count)
        }
        guard let facts = try? Facts(FactData(yaml: Self.facts), schema: bundle.schema) else { return .decided(rule: nil) }
        let decision = mode % 4 == 2 ? bundle.decideRetention(facts) : bundle.decide(facts)
        _ = decision.renderText()
        return .decided(rule: decision.rule?.id)
    }
}
