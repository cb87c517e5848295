import Foundation

/// The commitment that applies at the next renewal (`commitmentInfo` of renewal info).
public struct RenewalCommitmentInfo: Codable, Hashable, Sendable {
    /// The product the commitment renews into.
    public var commitmentAutoRenewProductId: String?
    public var commitmentAutoRenewStatus: AutoRenewStatus?
    public var commitmentRenewalBillingPlanType: BillingPlanType?
    /// When the commitment renews.
    public var commitmentRenewalDate: Date?
    /// The renewal price of the commitment in milliunits.
    public var commitmentRenewalPrice: Int64?

    public init(
        commitmentAutoRenewProductId: String? = nil,
        commitmentAutoRenewStatus: AutoRenewStatus? = nil,
        commitmentRenewalBillingPlanType: BillingPlanType? = nil,
        commitmentRenewalDate: Date? = nil,
        commitmentRenewalPrice: Int64? = nil
    ) {
        self.commitmentAutoRenewProductId = commitmentAutoRenewProductId
        self.commitmentAutoRenewStatus = commitmentAutoRenewStatus
        self.commitmentRenewalBillingPlanType = commitmentRenewalBillingPlanType
        self.commitmentRenewalDate = commitmentRenewalDate
        self.commitmentRenewalPrice = commitmentRenewalPrice
    }
}
