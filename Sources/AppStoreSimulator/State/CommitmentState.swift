import Foundation

/// A billing commitment of a subscription on a monthly plan (`billingPlanType` `MONTHLY`): the
/// customer commits to ``totalBillingPeriods`` monthly payments; each renewal inside the
/// commitment pays the next one, and the renewal after the last starts a new commitment.
struct CommitmentState: Sendable {
    /// Billing periods in one commitment (`totalBillingPeriods`).
    var totalBillingPeriods: Int32
    /// The billing period the latest transaction pays (`billingPeriodNumber`, 1-based; 0 before
    /// the first payment).
    var billingPeriodNumber: Int32
    /// When the current commitment ends (`commitmentExpiresDate`).
    var commitmentExpiresDate: Date
    /// What the whole commitment costs, in milliunits (`commitmentPrice`).
    var commitmentPrice: Int64

    /// A commitment of `totalBillingPeriods` whose first payment is still to come: the next
    /// period starts it.
    static func unstarted(totalBillingPeriods: Int32) -> CommitmentState {
        CommitmentState(totalBillingPeriods: totalBillingPeriods, billingPeriodNumber: 0,
                        commitmentExpiresDate: .distantPast, commitmentPrice: 0)
    }

    /// Whether the latest transaction paid the commitment's last billing period (or none was paid).
    var isInLastPeriod: Bool { billingPeriodNumber == 0 || billingPeriodNumber >= totalBillingPeriods }
}
