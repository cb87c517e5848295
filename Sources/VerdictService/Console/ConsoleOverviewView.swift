import Foundation
import RuleEngine
import VerdictStorage

/// The Overview page: the active bundle (and a refused one), the headline counts, each offer rule's
/// treatment against holdout (``HoldoutComparison``), and each refund rule's answers and Apple's
/// outcomes. Counts are since the start of the database.
struct ConsoleOverviewView {
    struct Bundle {
        var hash: String
        var loadedAt: String
        var rejected: String?
    }

    struct RuleRow {
        var rule: String
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

    var bundle: Bundle?
    var decisions: Int
    var offers: Int
    var requests: Int
    var missed: Int
    var deadJobs: Int
    var holdoutPercent: String
    var rules: [RuleRow]
    var refunds: [RefundRuleStatistics]

    init(reloader: RulesReloader, counts: (offers: Int, refunds: Int), offers: [OfferRuleStatistics],
         refunds: [RefundRuleStatistics], deadJobs: Int) {
        let active = reloader.store.current
        bundle = active.map {
            Bundle(hash: $0.hash, loadedAt: reloader.loadedAt.map(ConsoleFormat.instant) ?? "at start",
                   rejected: reloader.lastRejected.map { ConsoleFormat.instant($0.at) })
        }
        let share = active?.offers?.holdout.map { Double($0.basisPoints) / 10_000 }
        holdoutPercent = share.map { String(format: "%g %% holdout", $0 * 100) } ?? "holdout (none configured)"
        decisions = counts.offers
        self.offers = offers.reduce(0) { $0 + $1.offersMade }
        requests = counts.refunds
        missed = refunds.reduce(0) { $0 + $1.missed }
        self.deadJobs = deadJobs
        self.refunds = refunds
        rules = offers.map { statistics in
            let comparison = HoldoutComparison(
                treatment: .init(customers: statistics.offersMade, saved: statistics.convertedTreatment),
                holdout: .init(customers: statistics.heldOut, saved: statistics.convertedHoldout), expectedHoldoutShare: share)
            func percent(_ value: Double?) -> String { value.map { String(format: "%.1f %%", $0 * 100) } ?? "—" }
            let interval = comparison.liftInterval.map {
                String(format: "%+.1f pp (%+.1f to %+.1f)", (comparison.lift ?? 0) * 100, $0.lower * 100, $0.upper * 100)
            }
            var verdict = "no outcome yet"
            if comparison.lift != nil {
                if comparison.isConclusive {
                    verdict = (comparison.lift ?? 0) > 0 ? "treatment keeps more customers" : "the holdout keeps more customers"
                } else if let needed = comparison.customersNeededPerArm {
                    verdict = "not conclusive: about \(needed) customers per arm to detect this lift"
                } else {
                    verdict = "not conclusive"
                }
            }
            return RuleRow(
                rule: statistics.ruleId, decisions: statistics.decisions, offers: statistics.offersMade, heldOut: statistics.heldOut,
                redeemed: statistics.redeemed, rates: "\(percent(comparison.treatment.rate)) / \(percent(comparison.holdout.rate))",
                lift: interval ?? "—", chance: percent(comparison.probabilityTreatmentBeatsHoldout),
                mismatch: comparison.sampleRatioMismatch ? "Sample-ratio mismatch: the holdout's share is off (p < 0.001)." : nil,
                verdict: verdict)
        }
    }
}
