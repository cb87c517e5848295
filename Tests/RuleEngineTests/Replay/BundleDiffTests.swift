import RuleEngine
import Testing

/// The replay diff of the shipped bundle against edited copies: each edit that can change a
/// decision is listed once, in its section (or none, for what the sections share), with the file
/// and line of the item and its old → new value; edits that change no decision are not listed.
@Suite("Replay diff: the shipped bundle against an edit")
struct BundleDiffTests {
    typealias Support = BundleDiffTestSupport
    static let rules = "retention.rules.yaml"

    /// `change` at the line of the candidate's (or for a removal, the baseline's) `rules` file
    /// that contains `text`.
    static func expected(_ change: BundleChange.Change, _ section: Decision.Section?, _ kind: String, _ rule: String,
                         at text: String, in bundle: RuleBundle, file: String = rules, _ detail: String) throws -> BundleChange {
        let path = try #require(bundle.files.first { $0.name == file }).path
        return BundleChange(change: change, section: section, kind: kind, rule: rule, file: path,
                            line: try Support.line(of: text, in: file, of: bundle), detail: detail)
    }

    @Test("the same bundle, or one that differs only in comments and descriptions, has no change")
    func nothingThatDecides() throws {
        let shipped = try Support.shipped()
        #expect(Support.diff(shipped, shipped).isEmpty)
        let reworded = try Support.shipped([
            (Self.rules, "description: Annual subscribers who paid full price at least once get 40% off their next year.",
             "description: Full-price annual payers get 40% off."),
            (Self.rules, "  # Any refund in the last 90 days.\n", ""),
            ("messages.yaml", "description: A plain reminder of what Pro keeps.", "description: What Pro keeps."),
            ("catalog.yaml", "description: 20% off the next year; the year-end campaign offer.", "description: Year-end."),
        ])
        #expect(Support.diff(shipped, reworded).isEmpty)
    }

    @Test("a constant-only change lists exactly that constant, with the key that changed, its line and old → new")
    func constantOnly() throws {
        let baseline = try Support.shipped()
        let candidate = try Support.shipped([(Self.rules, "USD: money('49.99 USD')", "USD: money('55.00 USD')")])
        #expect(Support.diff(baseline, candidate) == [
            try Self.expected(.changed, nil, "constant", "annualFullPrice", at: "USD: money('55.00 USD')", in: candidate,
                              "USD: 49.99 USD → 55.00 USD"),
        ])
        let line = try Support.line(of: "USD: money('55.00 USD')", in: Self.rules, of: candidate)
        #expect(Support.diff(baseline, candidate).first?.description
            == "changed constant annualFullPrice (\(ShippedBundleTests.rulesDirectory)/retention.rules.yaml:\(line)): USD: 49.99 USD → 55.00 USD")
    }

    @Test("constants compare by value: a rewritten literal is no change; one computed from a changed constant shows its values")
    func constantValues() throws {
        func bundle(_ constants: String) throws -> RuleBundle {
            try BundleTestSupport.bundle(rules: BundleTestSupport.offerRule(
                when: "[\"subscription.price >= constants.threshold && subscription.paidPeriods >= constants.doubled\"]",
                top: "constants:\n\(constants)"))
        }
        let baseline = try bundle("  base: 2\n  doubled: constants.base * 2\n  threshold: money('39.99 USD')")
        let rewritten = try bundle("  base: 2\n  doubled: constants.base * 2\n  threshold: money('39.990 USD')")
        #expect(Support.diff(baseline, rewritten).isEmpty)
        let candidate = try bundle("  base: 3\n  doubled: constants.base * 2\n  threshold: money('45 USD')")
        let diff = Support.diff(baseline, candidate)
        #expect(diff.map { [$0.rule, $0.detail ?? ""] } == [["base", "2 → 3"], ["doubled", "4 → 6"], ["threshold", "39.99 USD → 45 USD"]])
        #expect(diff.allSatisfy { $0.change == .changed && $0.section == nil && $0.kind == "constant" })
    }

    @Test("an added perOffer cap is listed in its section with its file, line and value")
    func addedPerOfferLimit() throws {
        let baseline = try Support.shipped()
        let candidate = try Support.shipped([(Self.rules, "      lumen-annual-40off: {max: 1000, within: 30d}\n",
                                              "      lumen-annual-40off: {max: 1000, within: 30d}\n      lumen-monthly-3for1: {max: 500, within: 30d}\n")])
        #expect(Support.diff(baseline, candidate) == [
            try Self.expected(.added, .offers, "limit", "perOffer lumen-monthly-3for1", at: "lumen-monthly-3for1: {max", in: candidate,
                              "max 500 within 30d"),
        ])
        // The other way round it is removed, at the baseline's line.
        #expect(Support.diff(candidate, baseline) == [
            try Self.expected(.removed, .offers, "limit", "perOffer lumen-monthly-3for1", at: "lumen-monthly-3for1: {max", in: candidate,
                              "max 500 within 30d"),
        ])
    }

    @Test("the retention section's cap and the offers section's appliesTo are diffed in their sections")
    func sectionSettings() throws {
        let baseline = try Support.shipped()
        let candidate = try Support.shipped([
            (Self.rules, "no cap.\n  limits:\n    perCustomer: {max: 1, within: 180d}", "no cap.\n  limits:\n    perCustomer: {max: 2, within: 90d}"),
            (Self.rules, "appliesTo: event.type in [DID_CHANGE_RENEWAL_STATUS, EXPIRED]", "appliesTo: event.type in [DID_CHANGE_RENEWAL_STATUS]"),
        ])
        let perCustomer = try Support.line(of: "perCustomer: {max: 2", in: Self.rules, of: candidate)
        #expect(Support.diff(baseline, candidate) == [
            try Self.expected(.changed, .offers, "appliesTo", "appliesTo", at: "appliesTo: event.type in", in: candidate,
                              "event.type in [DID_CHANGE_RENEWAL_STATUS, EXPIRED] || event.subtype == DECREASE_QUANTITY → "
                                + "event.type in [DID_CHANGE_RENEWAL_STATUS] || event.subtype == DECREASE_QUANTITY"),
            BundleChange(change: .changed, section: .retention, kind: "limit", rule: "perCustomer",
                         file: candidate.files.first { $0.name == Self.rules }?.path ?? "", line: perCustomer,
                         detail: "max 1 within 180d → max 2 within 90d"),
        ])
    }

    @Test("the refunds default is positioned at its key")
    func refundDefault() throws {
        let baseline = try Support.shipped()
        let candidate = try Support.shipped([(Self.rules, "default: {refundPreference: none}",
                                              "default: {refundPreference: DECLINE, deliveryStatus: DELIVERED}")])
        #expect(Support.diff(baseline, candidate) == [
            try Self.expected(.changed, .refunds, "default", "default", at: "default: {refundPreference", in: candidate,
                              "omitted → DECLINE, deliveryStatus DELIVERED"),
        ])
    }

    @Test("the holdout, which both offer sections share, lists each aspect that changed")
    func holdout() throws {
        let baseline = try Support.shipped()
        let candidate = try Support.shipped([
            (Self.rules, "  percent: 5\n", "  percent: 2.5\n"),
            (Self.rules, "salt: lumen-retention-holdout-2026", "salt: lumen-retention-holdout-2027"),
        ])
        #expect(Support.diff(baseline, candidate) == [
            try Self.expected(.changed, nil, "holdout", "holdout", at: "holdout:", in: candidate,
                              "percent 5% → 2.5%; salt lumen-retention-holdout-2026 → lumen-retention-holdout-2027"),
        ])
    }

    @Test("a split's weights, a segment and an added attribute are each listed")
    func splitSegmentAttribute() throws {
        let baseline = try Support.shipped()
        let candidate = try Support.shipped([
            (Self.rules, "- {weight: 50, offer: {id: lumen-monthly-3for1", "- {weight: 70, offer: {id: lumen-monthly-3for1"),
            (Self.rules, "- {weight: 50, offer: {id: lumen-monthly-50off-3m", "- {weight: 30, offer: {id: lumen-monthly-50off-3m"),
            (Self.rules, "r.date > now - days(90))", "r.date > now - days(60))"),
            (Self.rules, "  exportsLast30Days: int?\n", "  exportsLast30Days: int?\n  tier: string?\n"),
        ])
        let unit = "split by subscription.originalTransactionId (salt lumen-monthly-depth-2026): "
        #expect(Support.diff(baseline, candidate) == [
            try Self.expected(.changed, .offers, "rule", "monthly-loyal-full-price", at: "id: monthly-loyal-full-price", in: candidate,
                              "offer \(unit)50% lumen-monthly-3for1, 50% lumen-monthly-50off-3m → \(unit)70% lumen-monthly-3for1, 30% lumen-monthly-50off-3m"),
            try Self.expected(.changed, nil, "segment", "recentRefunder", at: "recentRefunder:", in: candidate,
                              "customer.refunds.exists(r, r.date > now - days(90)) → customer.refunds.exists(r, r.date > now - days(60))"),
            try Self.expected(.added, nil, "attribute", "tier", at: "tier: string?", in: candidate, "string?"),
        ])
    }

    @Test("a veto's changed condition and a removed veto, in their section, the removal at the baseline's line")
    func vetoes() throws {
        let baseline = try Support.shipped(withTests: false)
        let candidate = try Support.shipped([
            (Self.rules, "      if: subscription.isInBillingRetry\n", "      if: subscription.isInBillingRetry || subscription.paidPeriods < 1\n"),
            (Self.rules, "    - id: no-offers-to-recent-refunders\n      if: segment.recentRefunder\n", ""),
        ], withTests: false)
        #expect(Support.diff(baseline, candidate) == [
            try Self.expected(.changed, .offers, "veto", "no-offers-during-billing-retry", at: "id: no-offers-during-billing-retry",
                              in: candidate, "when: + \"subscription.isInBillingRetry || subscription.paidPeriods < 1\", − \"subscription.isInBillingRetry\""),
            try Self.expected(.removed, .offers, "veto", "no-offers-to-recent-refunders", at: "id: no-offers-to-recent-refunders",
                              in: baseline, "priority 1: if segment.recentRefunder"),
        ])
    }

    @Test("a removed or inserted rule moves none of the others; its priority is in the detail")
    func removedAndInsertedRules() throws {
        let baseline = try Support.shipped(withTests: false)
        let yearEnd = try Support.block(in: Self.rules, from: "    - id: annual-year-end-campaign", to: "    - id: monthly-power-user-free-month")
        let removed = try Support.shipped([(Self.rules, yearEnd, "")], withTests: false)
        #expect(Support.diff(baseline, removed) == [
            try Self.expected(.removed, .offers, "rule", "annual-year-end-campaign", at: "id: annual-year-end-campaign", in: baseline,
                              "priority 2: lumen-annual-20off"),
        ])
        let first = "    - id: annual-full-price-payer\n"
        let inserted = try Support.shipped([(Self.rules, first, """
                - id: annual-everyone
                  when: [subscription.productId == 'com.lumen.pro.annual']
                  offer: {id: lumen-annual-20off, type: PROMOTIONAL}
                  mode: shadow

            \(first)
            """)], withTests: false)
        #expect(Support.diff(baseline, inserted) == [
            try Self.expected(.added, .offers, "rule", "annual-everyone", at: "id: annual-everyone", in: inserted,
                              "priority 1: lumen-annual-20off"),
        ])
    }

    @Test("two rules swapped are both moved, each with its old and new priority")
    func swappedRules() throws {
        let baseline = try Support.shipped()
        let annual = try Support.block(in: Self.rules, from: "    - id: annual-full-price-payer", to: "    - id: annual-year-end-campaign")
        let yearEnd = try Support.block(in: Self.rules, from: "    - id: annual-year-end-campaign", to: "    - id: monthly-power-user-free-month")
        let candidate = try Support.shipped([(Self.rules, annual + yearEnd, yearEnd + annual)])
        #expect(Support.diff(baseline, candidate) == [
            try Self.expected(.moved, .offers, "rule", "annual-year-end-campaign", at: "id: annual-year-end-campaign", in: candidate,
                              "priority 2 → 1"),
            try Self.expected(.moved, .offers, "rule", "annual-full-price-payer", at: "id: annual-full-price-payer", in: candidate,
                              "priority 1 → 2"),
        ])
    }

    @Test("a retention rule's answer is diffed in the retention section")
    func retentionAnswer() throws {
        let baseline = try Support.shipped()
        let candidate = try Support.shipped([(Self.rules, "answer: {message: what-you-lose}", "answer: {message: switch-to-monthly}")])
        #expect(Support.diff(baseline, candidate) == [
            try Self.expected(.changed, .retention, "rule", "cancel-page-what-you-lose", at: "id: cancel-page-what-you-lose",
                              in: candidate, "answer message what-you-lose → message switch-to-monthly"),
        ])
    }
}
