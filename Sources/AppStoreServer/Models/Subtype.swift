/// The subtype that qualifies a notification type (`subtype`).
public struct Subtype: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let initialBuy = Self(rawValue: "INITIAL_BUY")
    public static let resubscribe = Self(rawValue: "RESUBSCRIBE")
    public static let downgrade = Self(rawValue: "DOWNGRADE")
    public static let upgrade = Self(rawValue: "UPGRADE")
    public static let autoRenewEnabled = Self(rawValue: "AUTO_RENEW_ENABLED")
    public static let autoRenewDisabled = Self(rawValue: "AUTO_RENEW_DISABLED")
    public static let voluntary = Self(rawValue: "VOLUNTARY")
    public static let billingRetry = Self(rawValue: "BILLING_RETRY")
    public static let priceIncrease = Self(rawValue: "PRICE_INCREASE")
    public static let gracePeriod = Self(rawValue: "GRACE_PERIOD")
    public static let pending = Self(rawValue: "PENDING")
    public static let accepted = Self(rawValue: "ACCEPTED")
    public static let billingRecovery = Self(rawValue: "BILLING_RECOVERY")
    public static let productNotForSale = Self(rawValue: "PRODUCT_NOT_FOR_SALE")
    /// A mass renewal-date extension finished; the payload carries `summary`.
    public static let summary = Self(rawValue: "SUMMARY")
    /// A renewal-date extension failed for one subscriber.
    public static let failure = Self(rawValue: "FAILURE")
    /// An external purchase token was not reported.
    public static let unreported = Self(rawValue: "UNREPORTED")
    /// With `REFUND`: a seat-based refund took back some seats of a multiseat transaction
    /// (`revokedSeatQuantity`); the transaction stays valid for the rest.
    public static let seats = Self(rawValue: "SEATS")
    /// The number of seats of a multiseat subscription went up.
    public static let increaseQuantity = Self(rawValue: "INCREASE_QUANTITY")
    /// The number of seats of a multiseat subscription went down.
    public static let decreaseQuantity = Self(rawValue: "DECREASE_QUANTITY")

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [
        .initialBuy,
        .resubscribe,
        .downgrade,
        .upgrade,
        .autoRenewEnabled,
        .autoRenewDisabled,
        .voluntary,
        .billingRetry,
        .priceIncrease,
        .gracePeriod,
        .pending,
        .accepted,
        .billingRecovery,
        .productNotForSale,
        .summary,
        .failure,
        .unreported,
        .seats,
        .increaseQuantity,
        .decreaseQuantity,
    ]
}
