import RuleEngine

/// Small inline bundles for the bundle, decision and test-runner tests.
enum BundleTestSupport {
    static let catalog = """
        currencies: [USD, EUR]
        offers:
          - id: promo-annual-50
            type: PROMOTIONAL
            productIds: [com.example.pro.annual]
            subscriptionGroup: pro
          - id: promo-monthly-30
            type: PROMOTIONAL
            productIds: [com.example.pro.monthly, com.example.pro.annual]
            subscriptionGroup: pro
          - id: winback-a
            type: WIN_BACK
            productIds: [com.example.pro.monthly]
            subscriptionGroup: pro
          - id: winback-b
            type: WIN_BACK
            productIds: [com.example.pro.monthly]
            subscriptionGroup: pro
          - id: winback-c
            type: WIN_BACK
            productIds: [com.example.pro.monthly]
            subscriptionGroup: pro
        """

    /// An annual subscriber turning auto-renew off on 2026-12-15 (unit 90000000: holdout bucket
    /// 7456 under `retention-holdout-2026`).
    static let autoRenewOff = """
        event: {type: DID_CHANGE_RENEWAL_STATUS, subtype: AUTO_RENEW_DISABLED, environment: PRODUCTION, signedDate: 2026-12-15T12:00:00Z}
        subscription: {originalTransactionId: '90000000', productId: com.example.pro.annual, price: 59.99 USD, currency: USD, tenure: 400d, paidPeriods: 2, eligibleWinBackOfferIds: []}
        customer: {transactions: [], refunds: [], offersRedeemed: [], decisions: []}
        """

    /// The files of a bundle: `rules` as `test.rules.yaml`, the catalog, and optional tests.
    static func files(rules: String, catalog: String? = Self.catalog, tests: String? = nil) -> [BundleSourceFile] {
        var files = [BundleSourceFile(path: "Rules/test.rules.yaml", text: rules)]
        if let catalog { files.append(BundleSourceFile(path: "Rules/catalog.yaml", text: catalog)) }
        if let tests { files.append(BundleSourceFile(path: "Rules/test.tests.yaml", text: tests)) }
        return files
    }

    /// Loads a bundle that must check clean.
    static func bundle(rules: String, catalog: String? = Self.catalog, tests: String? = nil) throws -> RuleBundle {
        try RuleBundle.load(files: files(rules: rules, catalog: catalog, tests: tests))
    }

    /// The diagnostics of a bundle (whether or not it loads).
    static func diagnostics(rules: String, catalog: String? = Self.catalog, tests: String? = nil) -> [RuleDiagnostic] {
        RuleBundleChecker.check(files(rules: rules, catalog: catalog, tests: tests)).diagnostics
    }

    /// The errors of a bundle.
    static func errors(rules: String, catalog: String? = Self.catalog, tests: String? = nil) -> [RuleDiagnostic] {
        diagnostics(rules: rules, catalog: catalog, tests: tests).filter { $0.severity == .error }
    }

    /// Facts from YAML test data, with `overlay` (YAML) deep-merged over `base`.
    static func facts(_ base: String, _ overlay: String = "", schema: FactSchema = .standard) throws -> Facts {
        let merged = try FactData(yaml: base).deepMerged(with: FactData(yaml: overlay))
        return try Facts(merged, schema: schema)
    }

    /// One offer rule, as an item of `offers.rules`: `id`, `when` (a flow list), `offer` (a flow
    /// mapping) and, when given, one more `key: value` line of the rule (`extra`).
    static func rule(
        _ id: String = "r1", when: String = "[event.type == EXPIRED]", offer: String = "{id: promo-annual-50, type: PROMOTIONAL}",
        extra: String? = nil
    ) -> String {
        var rule = """
                - id: \(id)
                  when: \(when)
                  offer: \(offer)
            """
        if let extra { rule += "\n      \(extra)" }
        return rule
    }

    /// A rules file whose offers section holds `rules` (each from ``rule(_:when:offer:extra:)``).
    static func offerRules(_ rules: String..., top: String = "", section: String = "") -> String {
        offersFile(rules.joined(separator: "\n"), top: top, section: section)
    }

    /// A rules file whose offers section holds one rule (see ``rule(_:when:offer:extra:)``).
    static func offerRule(
        id: String = "r1", when: String = "[event.type == EXPIRED]", offer: String = "{id: promo-annual-50, type: PROMOTIONAL}",
        extra: String? = nil, top: String = "", section: String = ""
    ) -> String {
        offerRules(rule(id, when: when, offer: offer, extra: extra), top: top, section: section)
    }

    /// A rules file with a refunds section (for `CONSUMPTION_REQUEST`, answering nothing by
    /// default) holding `rules` (indented list items).
    static func refundsFile(_ rules: String) -> String {
        """
        schema: 1
        refunds:
          appliesTo: event.type == CONSUMPTION_REQUEST
          default: {refundPreference: none}
          rules:
        \(rules)
        """
    }

    /// A rules file with an offers section holding `rules` (indented list items) and optional
    /// extra top-level text.
    static func offersFile(_ rules: String, top: String = "", section: String = "") -> String {
        """
        schema: 1
        \(top)
        offers:
          appliesTo: event.type in [DID_CHANGE_RENEWAL_STATUS, EXPIRED]
        \(section)
          rules:
        \(rules)
        """
    }
}
