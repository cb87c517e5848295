import AppStoreServer
import Foundation

/// A subscription offer applied to a purchase or renewal.
///
/// `price` is per billing period in milliunits (0 for `FREE_TRIAL`); `period` is the length of one
/// offer period (the trial length, the pay-up-front length, or the pay-as-you-go billing period);
/// `periodCount` is how many pay-as-you-go periods the offer covers (1 otherwise).
public struct SimulatedOffer: Sendable, Hashable, Codable {
    /// `offerType`: introductory (1), promotional (2), offer code (3), win-back (4).
    public var type: OfferType
    /// `offerDiscountType`: `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`.
    public var discountType: OfferDiscountType
    /// `offerIdentifier`: promotional offer id, offer code reference name or win-back offer id.
    public var identifier: String?
    /// Price per offer period in milliunits; nil means 0 for a free trial and the regular price otherwise.
    public var price: Int64?
    /// Length of one offer period; nil means the subscription's own period.
    public var period: SubscriptionPeriod?
    /// Number of pay-as-you-go periods; nil means 1.
    public var periodCount: Int?

    /// An offer.
    public init(type: OfferType, discountType: OfferDiscountType, identifier: String? = nil,
                price: Int64? = nil, period: SubscriptionPeriod? = nil, periodCount: Int? = nil) {
        self.type = type
        self.discountType = discountType
        self.identifier = identifier
        self.price = price
        self.period = period
        self.periodCount = periodCount
    }

    /// A free trial of `period` (introductory offer unless said otherwise).
    public static func freeTrial(_ period: SubscriptionPeriod, type: OfferType = .introductoryOffer,
                                 identifier: String? = nil) -> SimulatedOffer {
        SimulatedOffer(type: type, discountType: .freeTrial, identifier: identifier, price: 0, period: period)
    }

    /// The price charged for the first offered period.
    func effectivePrice(regular: Int64) -> Int64 {
        if let price { return price }
        return discountType == .freeTrial ? 0 : regular
    }

    /// The length of the first offered period.
    func effectivePeriod(regular: SubscriptionPeriod) -> SubscriptionPeriod { period ?? regular }

    /// `offerPeriod`: the whole duration the offer covers.
    func offerPeriod(regular: SubscriptionPeriod) -> String {
        let one = effectivePeriod(regular: regular)
        return discountType == .payAsYouGo ? one.repeated(periodCount ?? 1).iso8601 : one.iso8601
    }

    /// How many billing periods the offer covers.
    var billingPeriods: Int { discountType == .payAsYouGo ? max(periodCount ?? 1, 1) : 1 }
}

/// Buy a consumable, non-consumable or non-renewing subscription: `ONE_TIME_CHARGE`.
public struct OneTimePurchaseRequest: Sendable, Hashable, Codable {
    /// The product bought.
    public var productId: String
    /// `Consumable` (default), `Non-Consumable` or `Non-Renewing Subscription`.
    public var type: ProductType?
    /// Price in milliunits; nil means 990.
    public var price: Int64?
    /// ISO 4217 currency; nil means the app configuration's default.
    public var currency: String?
    /// ISO alpha-3 storefront; nil means the app configuration's default.
    public var storefront: String?
    /// Quantity (consumables); nil means 1.
    public var quantity: Int32?
    /// `appAccountToken` attached to the purchase.
    public var appAccountToken: UUID?
    /// An existing customer (their app transaction id); nil creates a new customer.
    public var appTransactionId: String?
    /// `PURCHASED` (default) or `FAMILY_SHARED`.
    public var inAppOwnershipType: InAppOwnershipType?

    /// A one-time purchase.
    public init(productId: String, type: ProductType? = nil, price: Int64? = nil, currency: String? = nil,
                storefront: String? = nil, quantity: Int32? = nil, appAccountToken: UUID? = nil,
                appTransactionId: String? = nil, inAppOwnershipType: InAppOwnershipType? = nil) {
        self.productId = productId
        self.type = type
        self.price = price
        self.currency = currency
        self.storefront = storefront
        self.quantity = quantity
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.inAppOwnershipType = inAppOwnershipType
    }
}

/// What a scenario operation produced: the notification (already handed to the deliverer) and
/// the decoded transaction and renewal info it carries.
public struct ScenarioResult: Sendable, Hashable, Codable {
    /// The signed notification.
    public let notification: SimulatedNotification
    /// The transaction in `signedTransactionInfo`, if any.
    public let transaction: JWSTransactionDecodedPayload?
    /// The renewal info in `signedRenewalInfo`, if any.
    public let renewalInfo: JWSRenewalInfoDecodedPayload?

    /// The transaction id of ``transaction``.
    public var transactionId: String? { transaction?.transactionId }
    /// The original transaction id of ``transaction``.
    public var originalTransactionId: String? { transaction?.originalTransactionId }
}
