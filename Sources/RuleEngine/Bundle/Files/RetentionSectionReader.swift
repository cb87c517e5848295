/// Reads the `retention:` section (structure only; expressions stay text for the compiler).
extension RuleSectionReader {
    static let retentionKeys = ["appliesTo", "never", "limits", "rules"]
    static let retentionRuleKeys = ["id", "description", "active", "when", "answer", "split", "mode", "onLimit"]
    static let answerKeys = ["message", "offer", "signature", "alternateProduct"]
    static let signatureVersions = ["V2", "V1"]

    func retention(_ node: YAMLNode) -> RetentionSyntax? {
        guard let map = reader.mapping(node, "retention", keys: Self.retentionKeys, required: ["rules"]) else { return nil }
        var section = RetentionSyntax(node: node)
        if let applies = map["appliesTo"] { section.appliesTo = PositionedExpression.read(applies, "retention.appliesTo", log: log) }
        if let never = map["never"] { section.never = vetoes(never, "retention.never") }
        if let limits = map["limits"], let limitsMap = reader.mapping(limits, "retention.limits", keys: ["perCustomer", "perOffer"]) {
            if let perCustomer = limitsMap["perCustomer"] { section.perCustomer = limit(perCustomer, "limits.perCustomer") }
            if let perOffer = limitsMap["perOffer"], let entries = reader.namedEntries(perOffer, "limits.perOffer") {
                for entry in entries {
                    if let value = limit(entry.value, "limits.perOffer.\(entry.name)") {
                        section.perOffer.append((entry.name, entry.key, value))
                    }
                }
            }
        }
        if let rules = map["rules"], let items = reader.list(rules, "retention.rules") {
            section.rules = items.compactMap(retentionRule)
        }
        return section
    }

    private func retentionRule(_ node: YAMLNode) -> RetentionRuleSyntax? {
        guard let (map, id, idNode) = ruleHeader(node, "a retention rule", keys: Self.retentionRuleKeys) else { return nil }
        if map.has("answer") == map.has("split") {
            log.error("rule \(id) needs exactly one of 'answer' or 'split'", at: idNode)
        }
        let answer = map["answer"].flatMap { self.answer($0, "the answer of rule \(id)") }
        let split = map["split"].flatMap { answerSplit($0, rule: id) }
        var onLimit = LimitBehavior.next
        if let node = map["onLimit"] {
            guard let choice = reader.choice(node, "onLimit", among: LimitBehavior.allCases.map(\.rawValue)) else { return nil }
            onLimit = LimitBehavior(rawValue: choice) ?? .next
        }
        guard let when = conditions(map, rule: id), let mode = mode(map), answer != nil || split != nil else { return nil }
        return RetentionRuleSyntax(
            header: header(node, map, id: id, idNode: idNode, when: when, mode: mode), answer: answer, split: split,
            onLimit: onLimit)
    }

    private func answer(_ node: YAMLNode, _ what: String) -> AnswerSyntax? {
        guard let map = reader.mapping(node, what, keys: Self.answerKeys, required: ["message"]),
            let messageNode = map["message"], let message = reader.text(messageNode, "a message id")
        else { return nil }
        var answer = AnswerSyntax(node: node, message: message, messageNode: messageNode)
        if let offer = map["offer"] {
            guard let spec = offerSpec(offer, "the offer of \(what)") else { return nil }
            guard spec.type == "PROMOTIONAL" else {
                log.error("a realtime answer offers a PROMOTIONAL offer (signed by Verdict), not \(spec.type)", at: spec.typeNode)
                return nil
            }
            answer.offer = spec
        }
        if let signature = map["signature"] {
            guard let version = reader.choice(signature, "signature", among: Self.signatureVersions) else { return nil }
            guard answer.offer != nil else {
                log.error("'signature' says how an offer is signed; this answer has no offer", at: signature)
                return nil
            }
            answer.signature = version
            answer.signatureNode = signature
        }
        if let product = map["alternateProduct"] {
            guard answer.offer == nil else {
                log.error("an answer has either 'offer' or 'alternateProduct', not both", at: product)
                return nil
            }
            guard let productMap = reader.mapping(product, "alternateProduct", keys: ["productId", "billingPlanType"], required: ["productId"]),
                let productNode = productMap["productId"], let productId = reader.text(productNode, "a product id")
            else { return nil }
            var alternate = AlternateProductSyntax(node: product, productId: productId, productNode: productNode)
            if let plan = productMap["billingPlanType"] {
                guard let choice = reader.choice(plan, "billingPlanType", among: RuleEnum.billingPlanType.caseNames) else { return nil }
                alternate.billingPlanType = choice
            }
            answer.alternateProduct = alternate
        }
        return answer
    }

    private func answerSplit(_ node: YAMLNode, rule id: String) -> AnswerSplitSyntax? {
        guard let map = reader.mapping(node, "split", keys: ["unit", "salt", "variants"], required: ["unit", "salt", "variants"]),
            let unitNode = map["unit"], let unit = PositionedExpression.read(unitNode, "split.unit of rule \(id)", log: log),
            let saltNode = map["salt"], let salt = reader.text(saltNode, "split.salt"),
            let variantsNode = map["variants"], let items = reader.list(variantsNode, "split.variants")
        else { return nil }
        var variants: [(weight: Int, weightNode: YAMLNode, answer: AnswerSyntax)] = []
        for item in items {
            guard let variant = reader.mapping(item, "a split variant", keys: ["weight", "answer"], required: ["weight", "answer"]),
                let weightNode = variant["weight"], let weight = reader.int(weightNode, "weight", in: 0...100),
                let answerNode = variant["answer"], let answer = answer(answerNode, "the answer of a variant")
            else { continue }
            variants.append((weight, weightNode, answer))
        }
        guard variants.count == items.count, !variants.isEmpty else { return nil }
        return AnswerSplitSyntax(node: node, unit: unit, salt: salt, variants: variants)
    }
}
