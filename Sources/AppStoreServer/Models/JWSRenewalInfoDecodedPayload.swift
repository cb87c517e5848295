import Foundation

/// The decoded payload of signed subscription renewal information (`signedRenewalInfo`).
///
/// Renewal info has no `bundleId` and no `price`: the next price is `renewalPrice`.
/// Advanced Commerce details (`advancedCommerceInfo`) are not modelled and are ignored when decoding.
///
/// A subscription that renews as a multiseat purchase carries ``multiSeatInfo`` and
/// ``renewalQuantity``: ``renewalPrice`` is then the average price per seat, and the next charge is
/// ``renewalAmount`` (`JWSRenewalInfoDecodedPayload+Seats.swift`).
public struct JWSRenewalInfoDecodedPayload: Codable, Hashable, Sendable {
    /// Why the subscription expired (only once it has).
    public var expirationIntent: ExpirationIntent?
    public var originalTransactionId: String?
    /// The product that renews at the next billing period.
    public var autoRenewProductId: String?
    public var productId: String?
    public var autoRenewStatus: AutoRenewStatus?
    /// Whether Apple is still trying to collect payment for an expired period.
    public var isInBillingRetryPeriod: Bool?
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// When the billing grace period ends.
    public var gracePeriodExpiresDate: Date?
    /// The offer that applies at the next renewal.
    public var offerType: OfferType?
    public var offerIdentifier: String?
    /// When Apple signed the renewal info.
    public var signedDate: Date?
    public var environment: AppStoreEnvironment?
    /// Start of the current run of subscriptions, ignoring lapses shorter than 60 days.
    public var recentSubscriptionStartDate: Date?
    /// When the most recent purchase expires or renews.
    public var renewalDate: Date?
    /// ISO 4217 currency code of `renewalPrice`.
    public var currency: String?
    /// The next period's price (including any offer) in milliunits: 10990 means 10.99. For a
    /// multiseat renewal it is the average price per seat, not the charge (see ``renewalAmount``).
    public var renewalPrice: Int64?
    public var offerDiscountType: OfferDiscountType?
    /// Win-back offers the customer is eligible for, best first (order is significant).
    public var eligibleWinBackOfferIds: [String]?
    public var appAccountToken: UUID?
    public var appTransactionId: String?
    /// The offer's duration as an ISO 8601 duration, e.g. `P1M`.
    public var offerPeriod: String?
    public var commitmentInfo: RenewalCommitmentInfo?
    public var renewalBillingPlanType: BillingPlanType?
    /// The number of seats expected at the next renewal of a multiseat subscription.
    public var renewalQuantity: Int32?
    /// The seats and price tiers of the next renewal; nil unless it renews as a multiseat purchase.
    public var multiSeatInfo: RenewalMultiSeatInfo?

    public init(
        expirationIntent: ExpirationIntent? = nil,
        originalTransactionId: String? = nil,
        autoRenewProductId: String? = nil,
        productId: String? = nil,
        autoRenewStatus: AutoRenewStatus? = nil,
        isInBillingRetryPeriod: Bool? = nil,
        priceIncreaseStatus: PriceIncreaseStatus? = nil,
        gracePeriodExpiresDate: Date? = nil,
        offerType: OfferType? = nil,
        offerIdentifier: String? = nil,
        signedDate: Date? = nil,
        environment: AppStoreEnvironment? = nil,
        recentSubscriptionStartDate: Date? = nil,
        renewalDate: Date? = nil,
        currency: String? = nil,
        renewalPrice: Int64? = nil,
        offerDiscountType: OfferDiscountType? = nil,
        eligibleWinBackOfferIds: [String]? = nil,
        appAccountToken: UUID? = nil,
        appTransactionId: String? = nil,
        offerPeriod: String? = nil,
        commitmentInfo: RenewalCommitmentInfo? = nil,
        renewalBillingPlanType: BillingPlanType? = nil,
        renewalQuantity: Int32? = nil,
        multiSeatInfo: RenewalMultiSeatInfo? = nil
    ) {
        self.expirationIntent = expirationIntent
        self.originalTransactionId = originalTransactionId
        self.autoRenewProductId = autoRenewProductId
        self.productId = productId
        self.autoRenewStatus = autoRenewStatus
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.priceIncreaseStatus = priceIncreaseStatus
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.signedDate = signedDate
        self.environment = environment
        self.recentSubscriptionStartDate = recentSubscriptionStartDate
        self.renewalDate = renewalDate
        self.currency = currency
        self.renewalPrice = renewalPrice
        self.offerDiscountType = offerDiscountType
        self.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.commitmentInfo = commitmentInfo
        self.renewalBillingPlanType = renewalBillingPlanType
        self.renewalQuantity = renewalQuantity
        self.multiSeatInfo = multiSeatInfo
    }
}
