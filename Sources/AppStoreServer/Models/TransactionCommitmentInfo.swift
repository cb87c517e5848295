import Foundation

/// The billing commitment of a transaction (`commitmentInfo` of a transaction).
public struct TransactionCommitmentInfo: Codable, Hashable, Sendable {
    /// The 1-based billing period this transaction pays for within the commitment.
    public var billingPeriodNumber: Int32?
    /// When the commitment ends.
    public var commitmentExpiresDate: Date?
    /// The total commitment price in milliunits of the transaction's currency.
    public var commitmentPrice: Int64?
    /// The number of billing periods in the commitment.
    public var totalBillingPeriods: Int32?

    public init(
        billingPeriodNumber: Int32? = nil,
        commitmentExpiresDate: Date? = nil,
        commitmentPrice: Int64? = nil,
        totalBillingPeriods: Int32? = nil
    ) {
        self.billingPeriodNumber = billingPeriodNumber
        self.commitmentExpiresDate = commitmentExpiresDate
        self.commitmentPrice = commitmentPrice
        self.totalBillingPeriods = totalBillingPeriods
    }
}
