import AppStoreServer

/// The rule language's view of Apple's enumerations, built from AppStoreServer's `knownValues` so
/// the rules know exactly the values the Apple protocol layer knows.
///
/// String-valued Apple enums keep their wire names (`AUTO_RENEW_DISABLED`). Integer-valued and
/// prose-valued ones get readable names (documented in the fact reference):
/// `OfferType` 1 `INTRODUCTORY`, 2 `PROMOTIONAL`, 3 `OFFER_CODE`, 4 `WIN_BACK`;
/// `ProductType` "Auto-Renewable Subscription" `AUTO_RENEWABLE`, "Non-Consumable" `NON_CONSUMABLE`,
/// "Consumable" `CONSUMABLE`, "Non-Renewing Subscription" `NON_RENEWING`;
/// `Environment` "Sandbox" `SANDBOX`, "Production" `PRODUCTION`, "Xcode" `XCODE`,
/// "LocalTesting" `LOCAL_TESTING`; `ExpirationIntent` 1 `CUSTOMER_CANCELLED`, 2 `BILLING_ERROR`,
/// 3 `DID_NOT_CONSENT_TO_PRICE_INCREASE`, 4 `PRODUCT_NOT_AVAILABLE`, 5 `OTHER`;
/// `AutoRenewStatus` 0 `OFF`, 1 `ON`. `Subtype` adds `NONE` for notifications without a subtype,
/// so `event.subtype` is always present; `NotificationType` adds `REALTIME_REQUEST`, the event of a
/// Retention Messaging realtime request; `RevocationType` adds `REFUND_SEATS`, a refund of some of
/// a multiseat purchase's seats (``FactRevocationType``). A value Apple adds later that has no
/// entry here gets a name derived from its wire value (upper case, non-alphanumerics as `_`).
extension RuleEnum {
    public static let notificationType: RuleEnum = {
        let base = appleEnum("NotificationType", NotificationTypeV2.self)
        let realtime = NotificationTypeV2.realtimeRequest.rawValue
        return RuleEnum(name: base.name, cases: base.cases + [Case(name: realtime, wireValue: realtime)])
    }()
    public static let subtype: RuleEnum = {
        let base = appleEnum("Subtype", Subtype.self)
        return RuleEnum(name: base.name, cases: base.cases + [Case(name: noSubtype, wireValue: "")])
    }()
    /// The `Subtype` case of a notification without a subtype.
    public static let noSubtype = "NONE"
    public static let environment = appleEnum("Environment", AppStoreEnvironment.self, names: [
        .sandbox: "SANDBOX", .production: "PRODUCTION", .xcode: "XCODE", .localTesting: "LOCAL_TESTING",
    ])
    public static let consumptionRequestReason = appleEnum("ConsumptionRequestReason", ConsumptionRequestReason.self)
    public static let offerType = appleEnum("OfferType", OfferType.self, names: [
        .introductoryOffer: "INTRODUCTORY", .promotionalOffer: "PROMOTIONAL", .offerCode: "OFFER_CODE",
        .winBackOffer: "WIN_BACK", .retentionOffer: "RETENTION",
    ])
    public static let offerDiscountType = appleEnum("OfferDiscountType", OfferDiscountType.self)
    public static let productType = appleEnum("ProductType", ProductType.self, names: [
        .autoRenewable: "AUTO_RENEWABLE", .nonConsumable: "NON_CONSUMABLE", .consumable: "CONSUMABLE",
        .nonRenewable: "NON_RENEWING",
    ])
    public static let deliveryStatus = appleEnum("DeliveryStatus", DeliveryStatus.self)
    public static let revocationType = appleEnum("RevocationType", FactRevocationType.self)
    /// Who owns the subscription or purchase: `PURCHASED`, `FAMILY_SHARED`, `ASSIGNED` (a member
    /// of a group whose purchaser bought seats).
    public static let inAppOwnershipType = appleEnum("InAppOwnershipType", InAppOwnershipType.self)
    public static let expirationIntent = appleEnum("ExpirationIntent", ExpirationIntent.self, names: [
        .customerCancelled: "CUSTOMER_CANCELLED", .billingError: "BILLING_ERROR",
        .customerDidNotConsentToPriceIncrease: "DID_NOT_CONSENT_TO_PRICE_INCREASE",
        .productNotAvailable: "PRODUCT_NOT_AVAILABLE", .other: "OTHER",
    ])
    public static let autoRenewStatus = appleEnum("AutoRenewStatus", AutoRenewStatus.self, names: [
        .off: "OFF", .on: "ON",
    ])
    /// Not a fact: the values a refund rule may answer with (`respond.refundPreference`).
    public static let refundPreference = appleEnum("RefundPreference", RefundPreference.self)

    /// How a subscription is billed (`subscription.billingPlan`), and how an alternate product of
    /// a retention answer is (`alternateProduct.billingPlanType`).
    public static let billingPlanType = appleEnum("BillingPlanType", BillingPlanType.self)

    /// Every enum the fact schema uses, plus ``refundPreference``.
    public static let allApple: [RuleEnum] = [
        notificationType, subtype, environment, consumptionRequestReason, offerType, offerDiscountType,
        productType, deliveryStatus, revocationType, expirationIntent, autoRenewStatus, inAppOwnershipType, billingPlanType,
        refundPreference,
    ]

    /// Builds a rule enum from an Apple enumeration's known values, naming each case from `names`
    /// or, when absent there, from its wire value.
    static func appleEnum<E: AppleEnumeration>(_ name: String, _: E.Type, names: [E: String] = [:]) -> RuleEnum {
        RuleEnum(name: name, cases: E.knownValues.map { value in
            let wire = value.rawValue.description
            return Case(name: names[value] ?? derivedName(wire), wireValue: wire)
        })
    }

    /// `Auto-Renewable Subscription` → `AUTO_RENEWABLE_SUBSCRIPTION`; `EXPIRED` stays.
    static func derivedName(_ wire: String) -> String {
        var result = ""
        for scalar in wire.unicodeScalars {
            let isAlphanumeric = ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            if isAlphanumeric {
                result.unicodeScalars.append(scalar)
            } else if !result.hasSuffix("_") {
                result += "_"
            }
        }
        return result.uppercased()
    }
}
