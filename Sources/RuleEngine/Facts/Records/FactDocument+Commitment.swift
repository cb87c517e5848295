#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FactDocument {
    /// `subscription.commitment`: where a monthly plan stands in its billing commitment (Apple's
    /// `commitmentInfo` of the latest transaction, and of the renewal info for `autoRenew`).
    public struct Commitment: Sendable, Hashable {
        /// The billing period this transaction pays for, from 1 (`billingPeriodNumber`).
        public var period: Int64
        /// The billing periods of the commitment (`totalBillingPeriods`).
        public var periods: Int64
        /// When the commitment ends (`commitmentExpiresDate`).
        public var endsAt: Date
        /// Whether a new commitment follows when this one ends.
        public var autoRenew: Bool

        public init(period: Int64, periods: Int64, endsAt: Date, autoRenew: Bool) {
            self.period = period
            self.periods = periods
            self.endsAt = endsAt
            self.autoRenew = autoRenew
        }
    }
}

extension FactDocument.Commitment: FactRecord {
    public static let recordName = "Commitment"
    public static let fields: [FactField<Self>] = [
        .int("period", \.period, "The billing period the latest transaction pays for, from 1 (Apple's `billingPeriodNumber`)."),
        .int("periods", \.periods, "The billing periods of the commitment, e.g. 12 (Apple's `totalBillingPeriods`)."),
        .timestamp("endsAt", \.endsAt, "When the commitment ends (Apple's `commitmentExpiresDate`); until then the subscriber "
            + "keeps paying, even with auto-renew off."),
        .bool("autoRenew", \.autoRenew, "Whether a new commitment follows when this one ends (the renewal info's "
            + "`commitmentAutoRenewStatus`); when Apple gives none, whether the subscription renews at all "
            + "(`autoRenewStatus`), and false when that is unknown too."),
    ]
}
