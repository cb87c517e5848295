import RuleEngine

/// Inline bundles with a `retention:` section and `messages.yaml`.
enum RetentionTestSupport {
    static let catalog = BundleTestSupport.catalog + """

        products:
          - {id: com.example.pro.monthly-commit, subscriptionGroup: pro}
          - {id: com.example.lite.monthly, subscriptionGroup: lite}
        """

    static let messages = """
        messages:
          - id: stay-annual
            locales:
              en-US: {header: Stay for less, body: Half off your next year if you stay.}
              de-DE: {header: Bleib für weniger, body: Das nächste Jahr zum halben Preis.}
          - id: why-stay
            locales:
              en-US:
                header: What you would lose
                body: Every edit and preset stays in your library.
          - id: switch-monthly
            locales:
              en-US: {header: Pay monthly instead, body: Keep Pro and pay each month.}
        defaults:
          com.example.pro.annual: why-stay
        """

    /// An annual subscriber viewing the subscription in the App Store (unit 90000000: holdout
    /// bucket 7456 under `retention-holdout-2026`).
    static let realtime = """
        event: {type: REALTIME_REQUEST, subtype: NONE, environment: PRODUCTION, userLocale: en-US, signedDate: 2026-12-15T12:00:00Z}
        subscription: {originalTransactionId: '90000000', productId: com.example.pro.annual, price: 59.99 USD, currency: USD, tenure: 400d, paidPeriods: 2, eligibleWinBackOfferIds: []}
        customer: {transactions: [], refunds: [], offersRedeemed: [], decisions: []}
        """

    /// A rules file whose retention section holds `rules` (indented list items).
    static func rulesFile(_ rules: String, top: String = "", section: String = "") -> String {
        """
        schema: 1
        \(top)
        retention:
        \(section)
          rules:
        \(rules)
        """
    }

    static func files(rules: String, messages: String? = Self.messages, catalog: String = Self.catalog) -> [BundleSourceFile] {
        var files = [
            BundleSourceFile(path: "Rules/test.rules.yaml", text: rules),
            BundleSourceFile(path: "Rules/catalog.yaml", text: catalog),
        ]
        if let messages { files.append(BundleSourceFile(path: "Rules/messages.yaml", text: messages)) }
        return files
    }

    static func bundle(rules: String, messages: String? = Self.messages) throws -> RuleBundle {
        try RuleBundle.load(files: files(rules: rules, messages: messages))
    }

    static func errors(rules: String, messages: String? = Self.messages, catalog: String = Self.catalog) -> [String] {
        RuleBundleChecker.check(files(rules: rules, messages: messages, catalog: catalog)).diagnostics
            .filter { $0.severity == .error }.map(\.message)
    }

    static func facts(_ overlay: String = "") throws -> Facts {
        try BundleTestSupport.facts(realtime, overlay)
    }
}
