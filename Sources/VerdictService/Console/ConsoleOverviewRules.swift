import Foundation
import RuleEngine
import VerdictStorage

/// The Overview's comparisons of treatment against holdout, one row per offer rule: on the save
/// rate (``HoldoutComparison``) and, per currency, on net revenue per decided customer
/// (``RevenueComparison``).
enum ConsoleOverviewRules {
    struct SaveRateRow {
        var rule: String
        /// The rule's decisions of the period on the Decisions page.
        var href = ""
        var decisions: Int
        var offers: Int
        var heldOut: Int
        var redeemed: Int
        var rates: String
        var lift: String
        var chance: String
        var mismatch: String?
        var verdict: String
    }

    struct RevenueRow {
        var rule: String
        var currency: String
        var treatment: String
        var holdout: String
        var difference: String
        var chance: String
        var verdict: String
    }

    static func percent(_ value: Double?) -> String { value.map { String(format: "%.1f %%", $0 * 100) } ?? "—" }

    /// Milliunits as an amount of `currency`: `4.99 USD`.
    static func money(_ milliunits: Double, _ currency: String, signed: Bool = false) -> String {
        String(format: signed ? "%+.2f %@" : "%.2f %@", milliunits / 1_000, currency)
    }

    /// Per rule, the period's days summed over currencies.
    static func saveRates(_ days: [OfferRuleDay], expectedHoldoutShare share: Double?) -> [SaveRateRow] {
        let perRule = Dictionary(grouping: days.filter { !$0.statistics.ruleId.isEmpty }, by: \.statistics.ruleId)
        return perRule.keys.sorted().map { rule in
            let rows = perRule[rule] ?? []
            func sum(_ count: KeyPath<OfferRuleStatistics, Int>) -> Int { rows.reduce(0) { $0 + $1.statistics[keyPath: count] } }
            let comparison = HoldoutComparison(
                treatment: .init(customers: sum(\.offersMade), saved: sum(\.convertedTreatment)),
                holdout: .init(customers: sum(\.heldOut), saved: sum(\.convertedHoldout)), expectedHoldoutShare: share)
            let interval = comparison.liftInterval.map {
                String(format: "%+.1f pp (%+.1f to %+.1f)", (comparison.lift ?? 0) * 100, $0.lower * 100, $0.upper * 100)
            }
            return SaveRateRow(
                rule: rule, decisions: sum(\.decisions), offers: sum(\.offersMade), heldOut: sum(\.heldOut), redeemed: sum(\.redeemed),
                rates: "\(percent(comparison.treatment.rate)) / \(percent(comparison.holdout.rate))",
                lift: interval ?? "—", chance: percent(comparison.probabilityTreatmentBeatsHoldout),
                mismatch: comparison.sampleRatioMismatch ? "Sample-ratio mismatch: the holdout's share is off (p < 0.001)." : nil,
                verdict: verdict(
                    known: comparison.lift != nil, conclusive: comparison.isConclusive, better: (comparison.lift ?? 0) > 0,
                    needed: comparison.customersNeededPerArm, measure: "lift", winner: "keeps more customers"))
        }
    }

    /// Per rule and currency (decisions of a known currency only).
    static func revenues(_ days: [OfferRuleDay]) -> [RevenueRow] {
        let known = days.filter { !$0.statistics.ruleId.isEmpty && $0.currency != nil }
        let groups = Dictionary(grouping: known) { "\($0.statistics.ruleId)\u{0}\($0.currency ?? "")" }
        return groups.keys.sorted().compactMap { key in
            guard let rows = groups[key], let first = rows.first, let currency = first.currency else { return nil }
            func arm(_ count: KeyPath<OfferRuleStatistics, Int>, _ revenue: KeyPath<OfferRuleDay, OfferRuleDay.Revenue>)
                -> RevenueComparison.Arm {
                RevenueComparison.Arm(
                    customers: rows.reduce(0) { $0 + $1.statistics[keyPath: count] },
                    total: Double(rows.reduce(0) { $0 + $1[keyPath: revenue].total }),
                    squares: rows.reduce(0) { $0 + $1[keyPath: revenue].squares })
            }
            let comparison = RevenueComparison(
                treatment: arm(\.offersMade, \.treatmentRevenue), holdout: arm(\.heldOut, \.holdoutRevenue))
            guard comparison.treatment.customers + comparison.holdout.customers > 0 else { return nil }
            func mean(_ arm: RevenueComparison.Arm) -> String {
                "\(arm.customers) · " + (arm.mean.map { money($0, currency) } ?? "—")
            }
            let difference = comparison.difference.map { difference in
                money(difference, currency, signed: true) + (comparison.differenceInterval.map {
                    " (\(money($0.lower, currency, signed: true)) to \(money($0.upper, currency, signed: true)))"
                } ?? "")
            }
            return RevenueRow(
                rule: first.statistics.ruleId, currency: currency, treatment: mean(comparison.treatment),
                holdout: mean(comparison.holdout), difference: difference ?? "—",
                chance: percent(comparison.probabilityTreatmentBeatsHoldout),
                verdict: verdict(
                    known: comparison.differenceInterval != nil, conclusive: comparison.isConclusive,
                    better: (comparison.difference ?? 0) > 0, needed: comparison.customersNeededPerArm,
                    measure: "difference", winner: "brings in more per customer"))
        }
    }

    private static func verdict(known: Bool, conclusive: Bool, better: Bool, needed: Int?, measure: String, winner: String) -> String {
        guard known else { return "not enough data yet" }
        if conclusive { return better ? "treatment \(winner)" : "the holdout \(winner)" }
        if let needed { return "not conclusive: about \(needed) customers per arm to detect this \(measure)" }
        return "not conclusive"
    }
}
