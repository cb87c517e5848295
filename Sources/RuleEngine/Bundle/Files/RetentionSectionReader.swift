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
        if let node = map["limits"] { (section.perCustomer, section.perOffer) = limits(node, "retention") }
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
        guard let read = split(node, rule: id, choice: "answer", { answer($0, "the answer of a variant") }) else { return nil }
        return AnswerSplitSyntax(node: node, unit: read.unit, salt: read.salt, variants: read.variants.map { ($0.weight, $0.weightNode, $0.choice) })
    }
}
