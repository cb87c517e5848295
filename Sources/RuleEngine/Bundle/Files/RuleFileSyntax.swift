/// A `*.rules.yaml` file as read, before compilation: structure checked, expressions still text
/// (with their positions). Internal to the loader; `RuleBundleCompiler` turns it into a
/// `CompiledRuleBundle`.
struct RuleFileSyntax {
    var file: String
    var schemaVersion: Int?
    var name: String?
    var constants: [ConstantSyntax] = []
    var segments: [NamedExpressionSyntax] = []
    var attributes: [AttributeSyntax] = []
    var holdout: HoldoutSyntax?
    var offers: OffersSyntax?
    var refunds: RefundsSyntax?
    var retention: RetentionSyntax?
}

/// `name: expression`, or `name: {CUR: expression, …}` (a per-currency table).
struct ConstantSyntax {
    enum Value {
        case expression(PositionedExpression)
        case table([(key: String, keyNode: YAMLNode, value: PositionedExpression)])
    }

    var name: String
    var keyNode: YAMLNode
    var value: Value
}

/// `name: expression` (segments).
struct NamedExpressionSyntax {
    var name: String
    var keyNode: YAMLNode
    var expression: PositionedExpression
}

/// `name: type` under `attributes:` (`string`, `int`, `money?`, …).
struct AttributeSyntax {
    var name: String
    var keyNode: YAMLNode
    var typeName: String
    var typeNode: YAMLNode
}

/// `holdout: {percent, unit, salt}`; `percent` in basis points after reading (5 → 500, 2.5 → 250).
struct HoldoutSyntax {
    var node: YAMLNode
    /// Where the `holdout:` key is.
    var location: BundleLocation
    var basisPoints: Int
    var unit: PositionedExpression
    var salt: String
}

/// A `never:` entry: `{id, if}`.
struct VetoSyntax {
    var id: String
    var idNode: YAMLNode
    var condition: PositionedExpression
}

/// `{max, within}`.
struct LimitSyntax {
    var node: YAMLNode
    /// Where its key (`perCustomer:`, or the offer id under `perOffer:`) is.
    var location: BundleLocation
    var max: Int
    var within: Int64
}

/// The `offers:` section.
struct OffersSyntax {
    var node: YAMLNode
    var appliesTo: PositionedExpression?
    var never: [VetoSyntax] = []
    var perCustomer: LimitSyntax?
    var perOffer: [(offerId: String, keyNode: YAMLNode, limit: LimitSyntax)] = []
    var rules: [OfferRuleSyntax] = []
}

/// How a rule is run: acted on, only recorded, or skipped.
public enum RuleMode: String, Sendable, Codable, CaseIterable {
    case live, shadow, off
}

/// What happens when a candidate rule's offer is over a limit.
public enum LimitBehavior: String, Sendable, Codable, CaseIterable {
    /// Fall through to the next rule (the default).
    case next
    /// End evaluation with no offer.
    case stop
}

/// `offer: {id, type}` or `offer: {type: WIN_BACK, among: [ids]}`.
struct OfferSpecSyntax {
    var node: YAMLNode
    var id: String?
    var idNode: YAMLNode?
    var type: String
    var typeNode: YAMLNode
    var among: [(String, YAMLNode)]
}

/// `split: {unit, salt, variants: [{weight, offer}]}`.
struct SplitSyntax {
    var node: YAMLNode
    var unit: PositionedExpression
    var salt: String
    var variants: [(weight: Int, weightNode: YAMLNode, offer: OfferSpecSyntax)]
}

/// `active: {from, until}`, in milliseconds.
struct ActiveWindowSyntax {
    var node: YAMLNode
    var from: Int64?
    var fromNode: YAMLNode?
    var until: Int64?
    var untilNode: YAMLNode?
}

/// What offer and refund rules both have: the id, the rule's node, its description, active
/// window, conditions and mode.
struct RuleHeaderSyntax {
    var id: String
    var idNode: YAMLNode
    var node: YAMLNode
    var description: String?
    var active: ActiveWindowSyntax?
    var when: [PositionedExpression]
    var mode: RuleMode
}

/// One offer rule.
struct OfferRuleSyntax {
    var header: RuleHeaderSyntax
    var offer: OfferSpecSyntax?
    var split: SplitSyntax?
    /// How long the offer stays pending (overrides the catalog's `expiresAfter`).
    var expiresAfter: Int64?
    var onLimit: LimitBehavior
}

/// The `refunds:` section.
struct RefundsSyntax {
    var node: YAMLNode
    var appliesTo: PositionedExpression?
    var defaultResponse: RespondSyntax?
    /// Where the `default:` key is.
    var defaultLocation: BundleLocation?
    var never: [VetoSyntax] = []
    var rules: [RefundRuleSyntax] = []
}

/// `respond: {refundPreference, consumptionPercentage, deliveryStatus, sampleContentProvided}`.
/// `refundPreference` is a literal (`none` omits it); the others are literals or expressions.
struct RespondSyntax {
    var node: YAMLNode
    var refundPreference: String?
    var refundPreferenceNode: YAMLNode?
    var consumptionPercentage: PositionedExpression?
    var deliveryStatus: PositionedExpression?
    var sampleContentProvided: PositionedExpression?
}

/// One refund rule.
struct RefundRuleSyntax {
    var header: RuleHeaderSyntax
    var respond: RespondSyntax
}
