/// Compiles the `retention:` section and checks what Apple would reject: unknown messages,
/// offers and products; an offer that is not PROMOTIONAL or not for the products the rule allows; an
/// alternate product outside the subscription's group (or the subscription's own product).
struct RetentionSectionCompiler {
    let support: SectionCompilerSupport
    let messages: RetentionMessages
    private var log: DiagnosticLog { support.log }
    private var catalog: OfferCatalog { support.catalog }
    private var offers: OfferSectionCompiler { OfferSectionCompiler(support: support) }

    func compile(_ syntax: RetentionSyntax, holdout: CompiledHoldout?) -> CompiledRetentionSection {
        let appliesTo = syntax.appliesTo.flatMap { log.compile($0, support.environment) }
        var perOffer: [String: OfferLimit] = [:]
        for entry in syntax.perOffer where offers.checkOfferExists(entry.offerId, at: entry.keyNode) != nil {
            perOffer[entry.offerId] = OfferLimit(entry.limit)
        }
        var customerUnit: CompiledCondition?
        if syntax.perCustomer != nil {
            customerUnit = holdout?.unit ?? (try? ExpressionCompiler.compile("subscription.originalTransactionId", environment: support.environment))
                .map { CompiledCondition($0, at: PositionedExpression(text: $0.source, start: syntax.node.location)) }
        }
        return CompiledRetentionSection(
            appliesTo: appliesTo, vetoes: support.vetoes(syntax.never),
            perCustomer: syntax.perCustomer.map(OfferLimit.init), perOffer: perOffer,
            customerUnit: customerUnit, rules: syntax.rules.compactMap(rule))
    }

    private func rule(_ syntax: RetentionRuleSyntax) -> CompiledRetentionRule? {
        let header = syntax.header
        let window = support.window(header.active)
        let conditions = support.conditions(header.when)
        let products = support.analysis.constraint(on: "subscription.productId", in: header.when.map(\.text))
        var action: CompiledRetentionRule.Action?
        if let answer = syntax.answer {
            action = self.answer(answer, products: products).map(CompiledRetentionRule.Action.answer)
        } else if let split = syntax.split {
            let total = split.variants.reduce(0) { $0 + $1.weight }
            if total != 100 { log.error("split weights add up to \(total), not 100", at: split.node) }
            let unit = support.unit(split.unit, what: "split.unit")
            let variants = split.variants.compactMap { variant in
                answer(variant.answer, products: products).map { (weight: variant.weight, answer: $0) }
            }
            if total == 100, let unit, variants.count == split.variants.count {
                action = .split(unit: unit, salt: split.salt, variants: variants)
            }
        }
        guard let conditions, let action else { return nil }
        return CompiledRetentionRule(
            reference: support.reference(header.id, header.idNode), description: header.description, active: window,
            conditions: conditions, action: action, mode: header.mode, onLimit: syntax.onLimit)
    }

    private func answer(_ syntax: AnswerSyntax, products: ConditionAnalysis.Constraint?) -> AnswerSpec? {
        guard let message = messages.message(syntax.message) else {
            let suggestion = DidYouMean.suggestion(for: syntax.message, among: messages.messages.map(\.id))
            log.error(
                "unknown message '\(syntax.message)': messages.yaml does not declare it", at: syntax.messageNode,
                suggestion: suggestion, help: suggestion == nil ? "declare it in messages.yaml beside the rules" : nil)
            return nil
        }
        if syntax.offer != nil || syntax.alternateProduct != nil,
           let rich = message.locales.first(where: { !$0.isTextOnly }) {
            log.error(
                "message \(message.id) (\(rich.locale)) shows an image or bullet points; Apple shows only a text message with "
                    + "\(syntax.offer != nil ? "an offer" : "an alternate product")", at: syntax.messageNode,
                help: "answer with a text-only message here, or drop the \(syntax.offer != nil ? "offer" : "alternate product")")
            return nil
        }
        var offerId: String?
        if let offer = syntax.offer, let id = offer.id, let idNode = offer.idNode {
            guard let entry = offers.checkOfferExists(id, at: idNode) else { return nil }
            guard entry.type == "PROMOTIONAL" else {
                log.error("offer \(id) is a \(entry.type) offer in catalog.yaml; a realtime answer offers a PROMOTIONAL one", at: idNode)
                return nil
            }
            guard offers.checkFit(entry, products: products, at: idNode) else { return nil }
            offerId = id
        }
        if let alternate = syntax.alternateProduct, !checkAlternate(alternate, products: products) { return nil }
        return AnswerSpec(
            message: message.id, offerId: offerId,
            signature: syntax.signature.flatMap(AnswerSpec.SignatureVersion.init(rawValue:)) ?? .v2,
            alternateProductId: syntax.alternateProduct?.productId, billingPlanType: syntax.alternateProduct?.billingPlanType)
    }

    /// The product is in the catalog; when the rule pins `subscription.productId`, each product
    /// it allows is another product of the same group.
    private func checkAlternate(_ syntax: AlternateProductSyntax, products: ConditionAnalysis.Constraint?) -> Bool {
        guard let group = catalog.productGroups[syntax.productId] else {
            let suggestion = DidYouMean.suggestion(for: syntax.productId, among: Array(catalog.productGroups.keys).sorted())
            log.error(
                "unknown product '\(syntax.productId)': catalog.yaml names it in no offer and no 'products' entry",
                at: syntax.productNode, suggestion: suggestion,
                help: suggestion == nil ? "list it under 'products' in catalog.yaml with its subscriptionGroup" : nil)
            return false
        }
        guard case .only(let allowed)? = products else { return true }
        if allowed.contains(syntax.productId) {
            log.error("the alternate product \(syntax.productId) is the subscription's own product, which this rule's conditions allow", at: syntax.productNode)
            return false
        }
        let outside = allowed.filter { catalog.productGroups[$0] != group }.sorted()
        guard outside.isEmpty else {
            log.error(
                "the alternate product \(syntax.productId) (group \(group)) is outside the group of \(outside.map { "'\($0)'" }.joined(separator: ", ")), which this rule's conditions allow",
                at: syntax.productNode, help: "Apple offers a switch only within the subscription's group")
            return false
        }
        return true
    }
}
