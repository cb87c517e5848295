/// The compiled `retention:` section: the answers to the App Store's realtime Retention
/// Messaging requests. The bundle's `holdout` applies to it as to `offers:`.
public struct CompiledRetentionSection: Sendable {
    /// When the section answers at all (nil: every realtime request).
    public let appliesTo: CompiledCondition?
    /// The vetoes, in file order: a true (or erroring) one lets the App Store fall back.
    public let vetoes: [CompiledVeto]
    /// The per-customer limit across all offers answered.
    public let perCustomer: OfferLimit?
    /// Per-offer budgets by offer id.
    public let perOffer: [String: OfferLimit]
    /// Who a per-customer limit counts (the holdout's unit, else the subscription).
    public let customerUnit: CompiledCondition?
    /// The rules, in file order (the priority).
    public let rules: [CompiledRetentionRule]
}

/// One compiled retention rule.
public struct CompiledRetentionRule: Sendable {
    /// What the rule answers.
    public enum Action: Sendable {
        case answer(AnswerSpec)
        /// Variants bucketed by `unit` under `salt`; weights sum to 100.
        case split(unit: CompiledCondition, salt: String, variants: [(weight: Int, answer: AnswerSpec)])
    }

    public let reference: RuleReference
    public let description: String?
    public let active: ActiveWindow?
    public let conditions: [CompiledCondition]
    public let action: Action
    public let mode: RuleMode
    public let onLimit: LimitBehavior
}

/// A retention answer as written: a message of `messages.yaml`, optionally with a promotional
/// offer of the catalog (signed as `signature` says) or an alternate product.
public struct AnswerSpec: Hashable, Sendable {
    /// How an offer of an answer is signed.
    public enum SignatureVersion: String, Hashable, Sendable, Codable {
        /// A JWS whose `transactionId` is the request's originalTransactionId (Apple recommends it).
        case v2 = "V2"
        /// The legacy signature with its nonce, timestamp and key id.
        case v1 = "V1"
    }

    /// The message id.
    public let message: String
    /// A PROMOTIONAL catalog offer id.
    public let offerId: String?
    public let signature: SignatureVersion
    /// A product of the subscription's group to switch to.
    public let alternateProductId: String?
    /// `BILLED_UPFRONT` or `MONTHLY`, for the alternate product.
    public let billingPlanType: String?
}
