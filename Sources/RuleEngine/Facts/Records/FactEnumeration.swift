import AppStoreServer

/// An Apple enumeration that facts carry, tied to the rule enum that types it: a fact field of
/// this Swift type is declared with ``ruleEnum`` and written as Apple's wire value (an integer for
/// integer-valued enumerations such as `OfferType`, else the string), which the rule enum decodes.
public protocol FactEnumeration: AppleEnumeration {
    /// The rule language's view of this enumeration (``RuleEnum/offerType``, …).
    static var ruleEnum: RuleEnum { get }
}

extension FactEnumeration {
    /// The value when Apple documents it, nil for a value newer than this code: facts leave such
    /// values out, so a rule reading one fails with an explained error instead of deciding on a guess.
    public var known: Self? { isKnown ? self : nil }

    /// The value as a facts document writes it: Apple's wire value.
    var factValue: JSONValue {
        if let number = rawValue as? Int32 { return .integer(Int64(number)) }
        return .string(rawValue.description)
    }

    /// The name rules use for this value (`PROMOTIONAL` for `OfferType.promotionalOffer`);
    /// `UNRECOGNIZED` for a value the rule enum does not know.
    public var ruleName: String {
        Self.ruleEnum.caseName(Self.ruleEnum.ordinal(decoding: rawValue.description) ?? RuleEnum.unrecognizedOrdinal)
    }

    /// The value rules call `ruleName` (`PROMOTIONAL` is `OfferType.promotionalOffer`); nil for
    /// a name that is no case of this enumeration.
    public init?(ruleName: String) {
        guard let ordinal = Self.ruleEnum.ordinal(named: ruleName),
              let value = Self.knownValues.first(where: { $0.rawValue.description == Self.ruleEnum.cases[Int(ordinal)].wireValue })
        else { return nil }
        self = value
    }
}

extension NotificationTypeV2: FactEnumeration { public static var ruleEnum: RuleEnum { .notificationType } }
extension Subtype: FactEnumeration { public static var ruleEnum: RuleEnum { .subtype } }
extension AppStoreEnvironment: FactEnumeration { public static var ruleEnum: RuleEnum { .environment } }
extension ConsumptionRequestReason: FactEnumeration { public static var ruleEnum: RuleEnum { .consumptionRequestReason } }
extension OfferType: FactEnumeration { public static var ruleEnum: RuleEnum { .offerType } }
extension OfferDiscountType: FactEnumeration { public static var ruleEnum: RuleEnum { .offerDiscountType } }
extension ProductType: FactEnumeration { public static var ruleEnum: RuleEnum { .productType } }
extension DeliveryStatus: FactEnumeration { public static var ruleEnum: RuleEnum { .deliveryStatus } }
extension RevocationType: FactEnumeration { public static var ruleEnum: RuleEnum { .revocationType } }
extension ExpirationIntent: FactEnumeration { public static var ruleEnum: RuleEnum { .expirationIntent } }
extension AutoRenewStatus: FactEnumeration { public static var ruleEnum: RuleEnum { .autoRenewStatus } }
extension InAppOwnershipType: FactEnumeration { public static var ruleEnum: RuleEnum { .inAppOwnershipType } }
extension BillingPlanType: FactEnumeration { public static var ruleEnum: RuleEnum { .billingPlanType } }
