/// The type of an App Store Server Notification V2 (`notificationType`).
public struct NotificationTypeV2: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The customer subscribed (subtype `INITIAL_BUY` or `RESUBSCRIBE`).
    public static let subscribed = Self(rawValue: "SUBSCRIBED")
    /// The customer changed the product that renews next (`UPGRADE`, `DOWNGRADE` or none).
    public static let didChangeRenewalPref = Self(rawValue: "DID_CHANGE_RENEWAL_PREF")
    /// Auto-renew was turned on or off (`AUTO_RENEW_ENABLED` / `AUTO_RENEW_DISABLED`).
    public static let didChangeRenewalStatus = Self(rawValue: "DID_CHANGE_RENEWAL_STATUS")
    /// The customer redeemed a promotional offer or offer code.
    public static let offerRedeemed = Self(rawValue: "OFFER_REDEEMED")
    /// The subscription renewed (subtype `BILLING_RECOVERY` after a billing retry).
    public static let didRenew = Self(rawValue: "DID_RENEW")
    /// The subscription expired (`VOLUNTARY`, `BILLING_RETRY`, `PRICE_INCREASE`, `PRODUCT_NOT_FOR_SALE`).
    public static let expired = Self(rawValue: "EXPIRED")
    /// Renewal failed because of a billing issue (subtype `GRACE_PERIOD` when in grace period).
    public static let didFailToRenew = Self(rawValue: "DID_FAIL_TO_RENEW")
    /// The billing grace period ended without recovering the subscription.
    public static let gracePeriodExpired = Self(rawValue: "GRACE_PERIOD_EXPIRED")
    /// A price increase was announced (`PENDING`) or accepted (`ACCEPTED`).
    public static let priceIncrease = Self(rawValue: "PRICE_INCREASE")
    /// Apple refunded a transaction.
    public static let refund = Self(rawValue: "REFUND")
    /// Apple declined a refund requested in the app.
    public static let refundDeclined = Self(rawValue: "REFUND_DECLINED")
    /// Apple asks for consumption information about a refund request; see `data.consumptionRequestReason`.
    public static let consumptionRequest = Self(rawValue: "CONSUMPTION_REQUEST")
    /// A subscription's renewal date was extended.
    public static let renewalExtended = Self(rawValue: "RENEWAL_EXTENDED")
    /// A family member lost access through Family Sharing.
    public static let revoke = Self(rawValue: "REVOKE")
    /// A notification requested through Request a Test Notification.
    public static let test = Self(rawValue: "TEST")
    /// A mass renewal-date extension completed (`SUMMARY`) or failed for one subscriber (`FAILURE`).
    public static let renewalExtension = Self(rawValue: "RENEWAL_EXTENSION")
    /// Apple reversed a previously granted refund.
    public static let refundReversed = Self(rawValue: "REFUND_REVERSED")
    /// An external purchase token was not reported (`UNREPORTED`).
    public static let externalPurchaseToken = Self(rawValue: "EXTERNAL_PURCHASE_TOKEN")
    /// A consumable, non-consumable or non-renewing subscription was purchased.
    public static let oneTimeCharge = Self(rawValue: "ONE_TIME_CHARGE")
    /// The customer rescinded consent; the payload carries `appData`.
    public static let rescindConsent = Self(rawValue: "RESCIND_CONSENT")
    /// Advanced Commerce: subscription metadata changed.
    public static let metadataUpdate = Self(rawValue: "METADATA_UPDATE")
    /// Advanced Commerce: a subscription was migrated.
    public static let migration = Self(rawValue: "MIGRATION")
    /// Advanced Commerce: a subscription price changed.
    public static let priceChange = Self(rawValue: "PRICE_CHANGE")
    /// Seats of a multiseat subscription were unclaimed; the payload carries `unclaimInfo` with
    /// their seat ids.
    public static let unclaimSeats = Self(rawValue: "UNCLAIM_SEATS")

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [
        .subscribed,
        .didChangeRenewalPref,
        .didChangeRenewalStatus,
        .offerRedeemed,
        .didRenew,
        .expired,
        .didFailToRenew,
        .gracePeriodExpired,
        .priceIncrease,
        .refund,
        .refundDeclined,
        .consumptionRequest,
        .renewalExtended,
        .revoke,
        .test,
        .renewalExtension,
        .refundReversed,
        .externalPurchaseToken,
        .oneTimeCharge,
        .rescindConsent,
        .metadataUpdate,
        .migration,
        .priceChange,
        .unclaimSeats,
    ]
}
