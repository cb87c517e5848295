import AppStoreServer

/// What the engine decided for one notification, with everything needed to explain and audit it:
/// the bundle hash, the section, the deciding rule and its line, bucket
/// values, holdout and counterfactual, shadow matches, limits consulted, rules that errored,
/// corrections made to the refund answer for Apple, and a trace of conditions. Codable as the decision record; `renderText()` for people.
public struct Decision: Sendable, Hashable, Codable {
    /// Which section decided.
    public enum Section: String, Sendable, Hashable, Codable {
        case offers, refunds, retention
    }

    /// An offer to present: a catalog offer id and its type. Recorded as
    /// `{"id", "type", "expiresAfter"}`, the type by the name rules and `catalog.yaml` give it
    /// (`PROMOTIONAL`, `WIN_BACK`), as decisions have always been stored.
    public struct OfferChoice: Sendable, Hashable, Codable, CustomStringConvertible {
        public let id: String
        /// ``OfferType/promotionalOffer`` or ``OfferType/winBackOffer``.
        public let type: OfferType
        /// The rule's `expiresAfter`, when it sets one: how long the offer stays pending.
        public var expiresAfter: DecisionDuration?
        public var description: String { "\(id) (\(type.ruleName))" }

        public init(id: String, type: OfferType, expiresAfter: DecisionDuration? = nil) {
            self.id = id
            self.type = type
            self.expiresAfter = expiresAfter
        }

        private enum CodingKeys: String, CodingKey { case id, type, expiresAfter }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            let name = try container.decode(String.self, forKey: .type)
            guard let type = OfferType(ruleName: name) else {
                throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "'\(name)' is not an offer type")
            }
            self.type = type
            expiresAfter = try container.decodeIfPresent(DecisionDuration.self, forKey: .expiresAfter)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(type.ruleName, forKey: .type)
            try container.encodeIfPresent(expiresAfter, forKey: .expiresAfter)
        }
    }

    /// The consumption-request answer for Apple.
    public struct RefundResponse: Sendable, Hashable, Codable {
        /// `DECLINE`, `GRANT_FULL`, `GRANT_PRORATED`; nil = omit the field.
        public let refundPreference: String?
        /// Apple's `consumptionPercentage` in milliunits (50% = 50000); nil = omit.
        public let consumptionPercentage: Int64?
        /// A `DeliveryStatus` case name; nil = not set by the rules (the service supplies it).
        public let deliveryStatus: String?
        /// nil = not set by the rules.
        public let sampleContentProvided: Bool?
    }

    /// A bucket computed for the holdout or a split.
    public struct Bucket: Sendable, Hashable, Codable {
        /// `holdout` or `split:<rule id>`.
        public let purpose: String
        public let salt: String
        /// The unit's value (e.g. the originalTransactionId).
        public let unit: String
        /// `0..<10000`.
        public let bucket: Int
        /// Holdout: buckets below this are held out. Split: the variant index chosen.
        public let threshold: Int
    }

    /// A limit the engine asked about.
    public struct LimitCheck: Sendable, Hashable, Codable {
        /// The rule whose candidate offer was checked.
        public let rule: String
        /// `perCustomer` or `perOffer`.
        public let kind: String
        /// The offer for a per-offer limit.
        public let offer: String?
        public let used: Int
        public let max: Int
        /// The window (milliseconds; `180d` in JSON).
        public let within: DecisionDuration
        public let exceeded: Bool
    }

    /// A shadow rule that would have decided.
    public struct ShadowMatch: Sendable, Hashable, Codable {
        public let rule: RuleReference
        public let offer: OfferChoice?
        /// The refund answer it would have given, already corrected for Apple.
        public let refund: RefundResponse?
        /// The realtime answer it would have given (retention section).
        public var answer: Answer? = nil
        /// The corrections made to `refund` (see ``Decision/corrections``).
        public var corrections: [ConsumptionCorrection] = []
    }

    /// A change made to a rule's computed refund answer so that Apple accepts it (e.g. a
    /// percentage of 0 for an undelivered purchase), with the rule whose answer it was.
    /// `from`/`to` are the field's value as text (percentages in milliunits); nil = omitted.
    public struct Correction: Sendable, Hashable, Codable {
        /// The rule whose `respond:` was corrected (id `default` for the section's default).
        public let rule: RuleReference
        /// `consumptionPercentage` or `refundPreference`.
        public let field: String
        public let from: String?
        public let to: String?
        /// The Apple rule the computed value broke.
        public let reason: String

        public init(rule: RuleReference, _ correction: ConsumptionCorrection) {
            self.rule = rule
            field = correction.field
            from = correction.from
            to = correction.to
            reason = correction.reason
        }
    }

    /// A rule or veto skipped because something could not be evaluated.
    public struct RuleError: Sendable, Hashable, Codable {
        public let rule: RuleReference
        public let message: String
    }

    /// `sha256:…` of the bundle that decided.
    public var bundle: String
    /// The decision instant (nil when neither the caller nor the facts gave one).
    public var now: DecisionInstant?
    /// The section that applied, nil when none did.
    public var section: Section?
    /// The offer to present (offers section), nil for none.
    public var offer: OfferChoice?
    /// The consumption answer (refunds section).
    public var refund: RefundResponse?
    /// The realtime answer (retention section), nil to let the App Store fall back. Its offer, if
    /// any, is also ``offer``.
    public var answer: Answer?
    /// What a held-out customer would have been answered (retention section).
    public var counterfactualAnswer: Answer?
    /// The rule that decided, nil when none did (default, veto, no match).
    public var rule: RuleReference?
    /// The veto that blocked, if any.
    public var blockedBy: RuleReference?
    /// Whether the unit is in the holdout (then `offer` is nil and `counterfactual` is what it
    /// would have got).
    public var heldOut: Bool = false
    /// What a held-out customer would have been offered.
    public var counterfactual: OfferChoice?
    /// The rule that would have given the counterfactual.
    public var counterfactualRule: RuleReference?
    /// Bucket values computed.
    public var buckets: [Bucket] = []
    /// Shadow rules that matched, in order.
    public var shadowMatches: [ShadowMatch] = []
    /// Limits consulted.
    public var limits: [LimitCheck] = []
    /// Rules and vetoes that could not be evaluated.
    public var errors: [RuleError] = []
    /// Corrections made to `refund` so that Apple accepts it, in the order made.
    public var corrections: [Correction] = []
    /// Why the section decided as it did, condition by condition.
    public var trace: [DecisionTraceEntry] = []
}
