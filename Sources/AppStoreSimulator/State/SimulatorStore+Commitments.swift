import AppStoreServer
import Foundation

/// Monthly plans with a commitment: the `commitmentInfo` of each period's transaction and of the
/// renewal info. Turning auto-renew off mid-commitment is the ordinary `setAutoRenew`: the
/// commitment keeps running (renewals still pay its remaining periods) and does not renew at its end.
extension SimulatorStore {
    /// Makes the new period's `payload` pay a billing period of `record`'s commitment: the next one
    /// of a renewal inside the commitment, else the first of a new commitment, which ends after
    /// its billing periods (each one period after the one before, as renewals date them) and costs
    /// this period's charge for each. No-op without a commitment.
    func applyCommitment(to payload: inout JWSTransactionDecodedPayload, record: inout SubscriptionRecord) throws {
        guard var commitment = record.commitment else { return }
        if payload.transactionReason == .renewal && !commitment.isInLastPeriod {
            commitment.billingPeriodNumber += 1
        } else {
            let start = payload.purchaseDate ?? now
            let charge = payload.chargedAmount ?? 0
            let (price, overflow) = charge.multipliedReportingOverflow(by: Int64(commitment.totalBillingPeriods))
            guard !overflow else { throw SimulatorError.invalidRequest("the commitment's price overflows") }
            var end = start
            for _ in 0..<commitment.totalBillingPeriods { end = record.period.added(to: end) }
            commitment = CommitmentState(totalBillingPeriods: commitment.totalBillingPeriods, billingPeriodNumber: 1,
                                         commitmentExpiresDate: end, commitmentPrice: price)
        }
        payload.billingPlanType = .monthly
        payload.commitmentInfo = TransactionCommitmentInfo(
            billingPeriodNumber: commitment.billingPeriodNumber,
            commitmentExpiresDate: commitment.commitmentExpiresDate,
            commitmentPrice: commitment.commitmentPrice,
            totalBillingPeriods: commitment.totalBillingPeriods)
        record.commitment = commitment
    }

    /// Adds the commitment to `info` (after its seats, whose next charge it prices): the plan it
    /// renews on and, in `commitmentInfo`, whether, into what, when and for how much the
    /// commitment renews at its end. No-op without a commitment.
    func applyCommitmentRenewal(to info: inout JWSRenewalInfoDecodedPayload, record: SubscriptionRecord) {
        guard let commitment = record.commitment else { return }
        let renewalPrice = info.renewalAmount.flatMap { charge -> Int64? in
            let (price, overflow) = charge.multipliedReportingOverflow(by: Int64(commitment.totalBillingPeriods))
            return overflow ? nil : price
        }
        info.renewalBillingPlanType = .monthly
        info.commitmentInfo = RenewalCommitmentInfo(
            commitmentAutoRenewProductId: record.autoRenewProductId,
            commitmentAutoRenewStatus: record.autoRenewStatus,
            commitmentRenewalBillingPlanType: .monthly,
            commitmentRenewalDate: commitment.commitmentExpiresDate,
            commitmentRenewalPrice: renewalPrice)
    }
}
