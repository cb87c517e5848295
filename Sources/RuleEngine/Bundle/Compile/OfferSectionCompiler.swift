/// Compiles the `offers:` section: conditions, vetoes, limits, holdout, splits, and the domain
/// checks against `catalog.yaml` (offer ids exist, types match, the products the rule allows are
/// products the offer is for, split weights sum to 100).
struct OfferSectionCompiler {
    let support: SectionCompilerSupport
    private var log: DiagnosticLog { support.log }
    private var catalog: OfferCatalog { support.catalog }

    func compile(_ syntax: OffersSyntax, holdout: HoldoutSyntax?) -> CompiledOffersSection {
        let appliesTo = syntax.appliesTo.flatMap { log.compile($0, support.environment) }
        let compiledHoldout = support.holdout(holdout)
        var perOffer: [String: OfferLimit] = [:]
        for entry in syntax.perOffer where checkOfferExists(entry.offerId, at: entry.keyNode) != nil {
            perOffer[entry.offerId] = OfferLimit(entry.limit)
        }
        // `perCustomer` counts per customer as the bundle declares one: the holdout's unit, else the
        // subscription (originalTransactionId).
        var customerUnit: CompiledCondition?
        if syntax.perCustomer != nil {
            customerUnit = compiledHoldout?.unit ?? (try? ExpressionCompiler.compile("subscription.originalTransactionId", environment: support.environment))
                .map { CompiledCondition($0, at: PositionedExpression(text: $0.source, start: syntax.node.location)) }
        }
        let rules = syntax.rules.compactMap(rule)
        return CompiledOffersSection(
            appliesTo: appliesTo, holdout: compiledHoldout, vetoes: support.vetoes(syntax.never),
            perCustomer: syntax.perCustomer.map(OfferLimit.init), perOffer: perOffer,
            customerUnit: customerUnit, rules: rules)
    }

    private func rule(_ syntax: OfferRuleSyntax) -> CompiledOfferRule? {
        let header = syntax.header
        let window = support.window(header.active)
        let conditions = support.conditions(header.when)
        let products = support.analysis.constraint(on: "subscription.productId", in: header.when.map(\.text))
        var action: OfferAction?
        if let offer = syntax.offer {
            action = offerSpec(offer, products: products).map(OfferAction.offer)
        } else if let split = syntax.split {
            action = self.split(split, products: products).map(OfferAction.split)
        }
        guard let conditions, let action else { return nil }
        return CompiledOfferRule(
            reference: support.reference(header.id, header.idNode), description: header.description, active: window,
            conditions: conditions, action: action, mode: header.mode, onLimit: syntax.onLimit,
            expiresAfter: syntax.expiresAfter)
    }

    private func split(_ syntax: SplitSyntax, products: ConditionAnalysis.Constraint?) -> CompiledSplit? {
        let total = syntax.variants.reduce(0) { $0 + $1.weight }
        if total != 100 {
            log.error("split weights add up to \(total), not 100", at: syntax.node)
        }
        let unit = support.unit(syntax.unit, what: "split.unit")
        let variants = syntax.variants.compactMap { variant in
            offerSpec(variant.offer, products: products).map { (weight: variant.weight, offer: $0) }
        }
        guard total == 100, let unit, variants.count == syntax.variants.count else { return nil }
        return CompiledSplit(unit: unit, salt: syntax.salt, variants: variants)
    }

    private func offerSpec(_ syntax: OfferSpecSyntax, products: ConditionAnalysis.Constraint?) -> OfferSpec? {
        if let id = syntax.id, let idNode = syntax.idNode {
            guard let offer = checkOfferExists(id, at: idNode) else { return nil }
            guard offer.type == syntax.type else {
                log.error(
                    "offer \(id) is a \(offer.type) offer in catalog.yaml, not \(syntax.type)", at: syntax.typeNode,
                    suggestion: offer.type)
                return nil
            }
            guard checkFit(offer, products: products, at: idNode) else { return nil }
            return syntax.type == "WIN_BACK" ? .winBack(allowed: [id]) : .promotional(id: id)
        }
        var allowed: [String] = []
        for (id, node) in syntax.among {
            guard let offer = checkOfferExists(id, at: node) else { return nil }
            guard offer.type == "WIN_BACK" else {
                log.error("offer \(id) is a \(offer.type) offer in catalog.yaml; 'among' lists win-back offers", at: node)
                return nil
            }
            guard checkFit(offer, products: products, at: node) else { return nil }
            allowed.append(id)
        }
        if syntax.among.isEmpty {
            allowed = catalog.offers.filter { $0.type == "WIN_BACK" }.map(\.id)
            if allowed.isEmpty { log.error("catalog.yaml lists no WIN_BACK offer for this rule to choose from", at: syntax.node) }
        }
        return allowed.isEmpty ? nil : .winBack(allowed: allowed)
    }

    /// The catalog entry for `id`, or an error with a did-you-mean over the catalog's ids.
    func checkOfferExists(_ id: String, at node: YAMLNode) -> OfferCatalog.Offer? {
        if let offer = catalog.offer(id) { return offer }
        let suggestion = DidYouMean.suggestion(for: id, among: catalog.offers.map(\.id))
        log.error(
            "unknown offer '\(id)': catalog.yaml does not list it", at: node, suggestion: suggestion,
            help: suggestion == nil ? "add it to catalog.yaml as configured in App Store Connect" : nil)
        return nil
    }

    /// When the rule's conditions pin `subscription.productId`, every product they allow must be
    /// one the offer is for.
    func checkFit(_ offer: OfferCatalog.Offer, products: ConditionAnalysis.Constraint?, at node: YAMLNode) -> Bool {
        guard case .only(let allowed)? = products else { return true }
        let misfits = allowed.subtracting(offer.productIds).sorted()
        guard misfits.isEmpty else {
            log.error(
                "offer \(offer.id) is not for \(misfits.map { "'\($0)'" }.joined(separator: ", ")), which this rule's conditions allow",
                at: node, help: "catalog.yaml lists it for \(offer.productIds.joined(separator: ", "))")
            return false
        }
        return true
    }
}
