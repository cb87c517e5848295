/// The `retention:` section: what Verdict answers the App Store's realtime Retention Messaging
/// request with. Same structure as `offers:` (vetoes, limits, rules with splits, shadow mode,
/// windows); each rule answers with a message, optionally with a promotional offer or an
/// alternate product.
struct RetentionSyntax {
    var node: YAMLNode
    var appliesTo: PositionedExpression?
    var never: [VetoSyntax] = []
    var perCustomer: LimitSyntax?
    var perOffer: [(offerId: String, keyNode: YAMLNode, limit: LimitSyntax)] = []
    var rules: [RetentionRuleSyntax] = []
}

/// One retention rule: `answer` or `split` (variants of answers).
struct RetentionRuleSyntax {
    var header: RuleHeaderSyntax
    var answer: AnswerSyntax?
    var split: AnswerSplitSyntax?
    var onLimit: LimitBehavior
}

/// `answer: {message, offer?, signature?, alternateProduct?}`.
struct AnswerSyntax {
    var node: YAMLNode
    var message: String
    var messageNode: YAMLNode
    /// A PROMOTIONAL catalog offer.
    var offer: OfferSpecSyntax?
    /// `V2` (default) or `V1`: how the offer is signed.
    var signature: String?
    var signatureNode: YAMLNode?
    var alternateProduct: AlternateProductSyntax?
}

/// `alternateProduct: {productId, billingPlanType?}`.
struct AlternateProductSyntax {
    var node: YAMLNode
    var productId: String
    var productNode: YAMLNode
    var billingPlanType: String?
}

/// `split: {unit, salt, variants: [{weight, answer}]}`.
struct AnswerSplitSyntax {
    var node: YAMLNode
    var unit: PositionedExpression
    var salt: String
    var variants: [(weight: Int, weightNode: YAMLNode, answer: AnswerSyntax)]
}
