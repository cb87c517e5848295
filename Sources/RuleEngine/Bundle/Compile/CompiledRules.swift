/// A rule's identity in decisions and reports: its id and where it is written.
public struct RuleReference: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The rule (or veto) id.
    public let id: String
    /// The file it is in.
    public let file: String
    /// The line of its `id:`.
    public let line: Int

    /// `id (file:line)`.
    public var description: String { "\(id) (\(file):\(line))" }
}

/// What an offer rule does when it matches.
public enum OfferAction: Sendable {
    case offer(OfferSpec)
    case split(CompiledSplit)
}

/// One compiled offer rule. Its fields sit behind one reference, so the per-decision walk over
/// the rules copies a rule with one retain instead of one per field.
public struct CompiledOfferRule: Sendable {
    private let storage: Storage

    /// Id and position.
    public var reference: RuleReference { storage.reference }
    /// The rule's `description`, if written.
    public var description: String? { storage.description }
    /// When the rule applies (always, if nil).
    public var active: ActiveWindow? { storage.active }
    /// The `when` entries, all of which must be true.
    public var conditions: [CompiledCondition] { storage.conditions }
    /// The offer or split.
    public var action: OfferAction { storage.action }
    /// live, shadow or off.
    public var mode: RuleMode { storage.mode }
    /// What to do when the offer is over a limit.
    public var onLimit: LimitBehavior { storage.onLimit }
    /// How long the rule's offer stays pending (milliseconds); nil: the catalog's or the default.
    public var expiresAfter: Int64? { storage.expiresAfter }

    init(reference: RuleReference, description: String?, active: ActiveWindow?, conditions: [CompiledCondition],
         action: OfferAction, mode: RuleMode, onLimit: LimitBehavior, expiresAfter: Int64? = nil) {
        storage = Storage(reference: reference, description: description, active: active, conditions: conditions,
                          action: action, mode: mode, onLimit: onLimit, expiresAfter: expiresAfter)
    }

    private final class Storage: Sendable {
        let reference: RuleReference
        let description: String?
        let active: ActiveWindow?
        let conditions: [CompiledCondition]
        let action: OfferAction
        let mode: RuleMode
        let onLimit: LimitBehavior
        let expiresAfter: Int64?

        init(reference: RuleReference, description: String?, active: ActiveWindow?, conditions: [CompiledCondition],
             action: OfferAction, mode: RuleMode, onLimit: LimitBehavior, expiresAfter: Int64?) {
            self.reference = reference
            self.description = description
            self.active = active
            self.conditions = conditions
            self.action = action
            self.mode = mode
            self.onLimit = onLimit
            self.expiresAfter = expiresAfter
        }
    }
}

/// The compiled `offers:` section.
public struct CompiledOffersSection: Sendable {
    /// When the section decides at all.
    public let appliesTo: CompiledCondition?
    /// The holdout, if the bundle has one.
    public let holdout: CompiledHoldout?
    /// The vetoes, in file order.
    public let vetoes: [CompiledVeto]
    /// The per-customer limit across all offers.
    public let perCustomer: OfferLimit?
    /// Per-offer budgets by offer id.
    public let perOffer: [String: OfferLimit]
    /// Who a per-customer limit counts (`subscription.originalTransactionId`).
    public let customerUnit: CompiledCondition?
    /// The rules, in file order (the priority).
    public let rules: [CompiledOfferRule]
}

/// `holdout:` compiled: units whose bucket is below `basisPoints` are held out.
public struct CompiledHoldout: Sendable {
    /// The held-out share in basis points (5% = 500) of the 10,000 buckets.
    public let basisPoints: Int
    /// What to bucket by.
    public let unit: CompiledCondition
    /// The salt.
    public let salt: String
    /// Where the `holdout:` key is written.
    public let location: BundleLocation
}

/// A response field: written as a literal in the file, or computed from the facts.
public enum ResponseField<Value: Sendable & Hashable>: Sendable {
    case fixed(Value)
    case computed(CompiledCondition)

    /// The literal, if the field is one.
    public var fixedValue: Value? {
        if case .fixed(let value) = self { return value }
        return nil
    }
}

/// A compiled `respond:` (refund rules and the refunds default).
public struct CompiledResponse: Sendable {
    /// `DECLINE`, `GRANT_FULL`, `GRANT_PRORATED`, or nil to omit the preference.
    public let refundPreference: String?
    /// Percent consumed, 0–100; sent to Apple ×1000 (milliunits).
    public let consumptionPercentage: ResponseField<Int64>?
    /// A `DeliveryStatus` case name (`DELIVERED`, `UNDELIVERED_OTHER`, …).
    public let deliveryStatus: ResponseField<String>?
    /// Whether the app provided a free sample or trial.
    public let sampleContentProvided: ResponseField<Bool>?
}

/// One compiled refund rule.
public struct CompiledRefundRule: Sendable {
    /// Id and position.
    public let reference: RuleReference
    /// The rule's `description`, if written.
    public let description: String?
    /// When the rule applies (always, if nil).
    public let active: ActiveWindow?
    /// The `when` entries.
    public let conditions: [CompiledCondition]
    /// What to answer Apple.
    public let response: CompiledResponse
    /// live, shadow or off.
    public let mode: RuleMode
}

/// The compiled `refunds:` section.
public struct CompiledRefundsSection: Sendable {
    /// When the section decides at all.
    public let appliesTo: CompiledCondition?
    /// What to answer when no rule matches or a veto blocks (nil: no preference, nothing else).
    public let defaultResponse: CompiledResponse?
    /// Where the `default:` key is written (nil without one).
    public let defaultLocation: BundleLocation?
    /// Vetoes: a true (or erroring) one answers with the default.
    public let vetoes: [CompiledVeto]
    /// The rules, in file order.
    public let rules: [CompiledRefundRule]
}
