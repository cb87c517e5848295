/// Reads the `offers:` and `refunds:` sections of a rules file (structure only; expressions stay
/// text for the compiler).
struct RuleSectionReader {
    static let offersKeys = ["appliesTo", "never", "limits", "rules"]
    static let offerRuleKeys = ["id", "description", "active", "when", "offer", "split", "expiresAfter", "mode", "onLimit"]
    static let refundsKeys = ["appliesTo", "default", "never", "rules"]
    static let refundRuleKeys = ["id", "description", "active", "when", "respond", "mode"]
    static let respondKeys = ["refundPreference", "consumptionPercentage", "deliveryStatus", "sampleContentProvided"]
    static let offerTypes = ["PROMOTIONAL", "WIN_BACK"]

    let log: DiagnosticLog
    var reader: NodeReader { NodeReader(log: log) }

    func offers(_ node: YAMLNode) -> OffersSyntax? {
        guard let map = reader.mapping(node, "offers", keys: Self.offersKeys, required: ["appliesTo", "rules"]) else { return nil }
        var section = OffersSyntax(node: node)
        if let applies = map["appliesTo"] { section.appliesTo = PositionedExpression.read(applies, "offers.appliesTo", log: log) }
        if let never = map["never"] { section.never = vetoes(never, "offers.never") }
        if let node = map["limits"] { (section.perCustomer, section.perOffer) = limits(node, "offers") }
        if let rules = map["rules"], let items = reader.list(rules, "offers.rules") {
            section.rules = items.compactMap(offerRule)
        }
        return section
    }

    func refunds(_ node: YAMLNode) -> RefundsSyntax? {
        guard let map = reader.mapping(node, "refunds", keys: Self.refundsKeys, required: ["appliesTo", "rules"]) else { return nil }
        var section = RefundsSyntax(node: node)
        if let applies = map["appliesTo"] { section.appliesTo = PositionedExpression.read(applies, "refunds.appliesTo", log: log) }
        if let fallback = map["default"] {
            section.defaultResponse = respond(fallback, "refunds.default")
            section.defaultLocation = map.keyNode("default")?.location
        }
        if let never = map["never"] { section.never = vetoes(never, "refunds.never") }
        if let rules = map["rules"], let items = reader.list(rules, "refunds.rules") {
            section.rules = items.compactMap(refundRule)
        }
        return section
    }

    func vetoes(_ node: YAMLNode, _ what: String) -> [VetoSyntax] {
        guard let items = reader.list(node, what) else { return [] }
        return items.compactMap { item -> VetoSyntax? in
            guard let map = reader.mapping(item, "an entry of \(what)", keys: ["id", "if"], required: ["id", "if"]),
                let idNode = map["id"], let id = reader.text(idNode, "a veto id"),
                let conditionNode = map["if"],
                let condition = PositionedExpression.read(conditionNode, "the condition of veto \(id)", log: log)
            else { return nil }
            return VetoSyntax(id: id, idNode: idNode, condition: condition)
        }
    }

    /// `{max, within}` written at `node`, under the key `key`.
    func limit(_ node: YAMLNode, _ what: String, key: YAMLNode) -> LimitSyntax? {
        guard let map = reader.mapping(node, what, keys: ["max", "within"], required: ["max", "within"]),
            let maxNode = map["max"], let max = reader.int(maxNode, "\(what).max", in: 0...Int(Int32.max)),
            let withinNode = map["within"], let within = reader.duration(withinNode, "\(what).within")
        else { return nil }
        return LimitSyntax(node: node, location: key.location, max: max, within: within)
    }

    func ruleHeader(_ node: YAMLNode, _ what: String, keys: [String]) -> (YAMLMapping, String, YAMLNode)? {
        guard let map = reader.mapping(node, what, keys: keys, required: ["id"]),
            let idNode = map["id"], let id = reader.text(idNode, "a rule id")
        else { return nil }
        return (map, id, idNode)
    }

    func conditions(_ map: YAMLMapping, rule id: String) -> [PositionedExpression]? {
        guard let node = map["when"] else { return [] }
        guard let items = reader.list(node, "when of rule \(id)") else { return nil }
        let read = items.enumerated().compactMap { offset, item in
            PositionedExpression.read(item, "condition \(offset + 1) of rule \(id)", log: log)
        }
        return read.count == items.count ? read : nil
    }

    func mode(_ map: YAMLMapping) -> RuleMode? {
        guard let node = map["mode"] else { return .live }
        return reader.choice(node, "mode", among: RuleMode.allCases.map(\.rawValue)).flatMap(RuleMode.init(rawValue:))
    }

    private func offerRule(_ node: YAMLNode) -> OfferRuleSyntax? {
        guard let (map, id, idNode) = ruleHeader(node, "an offer rule", keys: Self.offerRuleKeys) else { return nil }
        let hasOffer = map.has("offer")
        if hasOffer == map.has("split") {
            log.error("rule \(id) needs exactly one of 'offer' or 'split'", at: idNode)
        }
        let offer = map["offer"].flatMap { offerSpec($0, "the offer of rule \(id)") }
        let split = map["split"].flatMap { self.split($0, rule: id) }
        var onLimit = LimitBehavior.next
        if let node = map["onLimit"] {
            guard let choice = reader.choice(node, "onLimit", among: LimitBehavior.allCases.map(\.rawValue)) else { return nil }
            onLimit = LimitBehavior(rawValue: choice) ?? .next
        }
        var expiresAfter: Int64?
        if let node = map["expiresAfter"] {
            guard let duration = reader.duration(node, "expiresAfter") else { return nil }
            expiresAfter = duration
        }
        guard let when = conditions(map, rule: id), let mode = mode(map), offer != nil || split != nil else { return nil }
        return OfferRuleSyntax(
            header: header(node, map, id: id, idNode: idNode, when: when, mode: mode), offer: offer, split: split,
            expiresAfter: expiresAfter, onLimit: onLimit)
    }

    private func refundRule(_ node: YAMLNode) -> RefundRuleSyntax? {
        guard let (map, id, idNode) = ruleHeader(node, "a refund rule", keys: Self.refundRuleKeys) else { return nil }
        guard let respondNode = map["respond"] else {
            log.error("refund rule \(id) needs 'respond'", at: idNode)
            return nil
        }
        guard let when = conditions(map, rule: id), let mode = mode(map),
            let respond = respond(respondNode, "the response of rule \(id)")
        else { return nil }
        return RefundRuleSyntax(header: header(node, map, id: id, idNode: idNode, when: when, mode: mode), respond: respond)
    }

    /// A rule's common part, once its conditions and mode are read: its description and active window.
    func header(
        _ node: YAMLNode, _ map: YAMLMapping, id: String, idNode: YAMLNode, when: [PositionedExpression], mode: RuleMode
    ) -> RuleHeaderSyntax {
        RuleHeaderSyntax(
            id: id, idNode: idNode, node: node, description: map["description"].flatMap { reader.text($0, "description") },
            active: map["active"].flatMap(active), when: when, mode: mode)
    }

    private func active(_ node: YAMLNode) -> ActiveWindowSyntax? {
        guard let map = reader.mapping(node, "active", keys: ["from", "until"]) else { return nil }
        var window = ActiveWindowSyntax(node: node)
        if let from = map["from"] {
            window.from = reader.timestamp(from, "active.from")
            window.fromNode = from
        }
        if let until = map["until"] {
            window.until = reader.timestamp(until, "active.until")
            window.untilNode = until
        }
        return window
    }

    func offerSpec(_ node: YAMLNode, _ what: String) -> OfferSpecSyntax? {
        guard let map = reader.mapping(node, what, keys: ["id", "type", "among"], required: ["type"]),
            let typeNode = map["type"], let type = reader.choice(typeNode, "offer type", among: Self.offerTypes)
        else { return nil }
        var spec = OfferSpecSyntax(node: node, type: type, typeNode: typeNode, among: [])
        if let idNode = map["id"] {
            spec.id = reader.text(idNode, "an offer id")
            spec.idNode = idNode
        }
        if let among = map["among"] {
            guard type == "WIN_BACK" else {
                log.error("'among' chooses between win-back offers; a \(type) offer names one 'id'", at: among)
                return nil
            }
            spec.among = reader.texts(among, "among") ?? []
        }
        if spec.id != nil, !spec.among.isEmpty {
            log.error("an offer has either 'id' or 'among', not both", at: node)
            return nil
        }
        if type == "PROMOTIONAL", spec.id == nil {
            log.error("a PROMOTIONAL offer needs an 'id'", at: node)
            return nil
        }
        return spec
    }

    private func split(_ node: YAMLNode, rule id: String) -> SplitSyntax? {
        guard let read = split(node, rule: id, choice: "offer", { offerSpec($0, "the offer of a variant") }) else { return nil }
        return SplitSyntax(node: node, unit: read.unit, salt: read.salt, variants: read.variants.map { ($0.weight, $0.weightNode, $0.choice) })
    }

    /// `split: {unit, salt, variants: [{weight, <choice>}]}` (offers: `offer`, retention: `answer`),
    /// each variant's choice read by `readChoice`. Nil when anything is wrong (reported).
    func split<Choice>(
        _ node: YAMLNode, rule id: String, choice key: String, _ readChoice: (YAMLNode) -> Choice?
    ) -> (unit: PositionedExpression, salt: String, variants: [(weight: Int, weightNode: YAMLNode, choice: Choice)])? {
        guard let map = reader.mapping(node, "split", keys: ["unit", "salt", "variants"], required: ["unit", "salt", "variants"]),
            let unitNode = map["unit"], let unit = PositionedExpression.read(unitNode, "split.unit of rule \(id)", log: log),
            let saltNode = map["salt"], let salt = reader.text(saltNode, "split.salt"),
            let variantsNode = map["variants"], let items = reader.list(variantsNode, "split.variants")
        else { return nil }
        var variants: [(weight: Int, weightNode: YAMLNode, choice: Choice)] = []
        for item in items {
            guard let variant = reader.mapping(item, "a split variant", keys: ["weight", key], required: ["weight", key]),
                let weightNode = variant["weight"], let weight = reader.int(weightNode, "weight", in: 0...100),
                let choiceNode = variant[key], let choice = readChoice(choiceNode)
            else { continue }
            variants.append((weight, weightNode, choice))
        }
        guard variants.count == items.count, !variants.isEmpty else { return nil }
        return (unit, salt, variants)
    }

    /// `limits: {perCustomer, perOffer}` of the offers or retention section.
    func limits(_ node: YAMLNode, _ section: String) -> (perCustomer: LimitSyntax?, perOffer: [(offerId: String, keyNode: YAMLNode, limit: LimitSyntax)]) {
        var result: (perCustomer: LimitSyntax?, perOffer: [(offerId: String, keyNode: YAMLNode, limit: LimitSyntax)]) = (nil, [])
        guard let map = reader.mapping(node, "\(section).limits", keys: ["perCustomer", "perOffer"]) else { return result }
        if let perCustomer = map["perCustomer"], let key = map.keyNode("perCustomer") {
            result.perCustomer = limit(perCustomer, "limits.perCustomer", key: key)
        }
        if let perOffer = map["perOffer"], let entries = reader.namedEntries(perOffer, "limits.perOffer") {
            for entry in entries {
                if let value = limit(entry.value, "limits.perOffer.\(entry.name)", key: entry.key) {
                    result.perOffer.append((entry.name, entry.key, value))
                }
            }
        }
        return result
    }

    func respond(_ node: YAMLNode, _ what: String) -> RespondSyntax? {
        guard let map = reader.mapping(node, what, keys: Self.respondKeys) else { return nil }
        var respond = RespondSyntax(node: node)
        if let preference = map["refundPreference"] {
            let choices = ["none"] + RuleEnum.refundPreference.caseNames
            guard let choice = reader.choice(preference, "refundPreference", among: choices) else { return nil }
            respond.refundPreference = choice == "none" ? nil : choice
            respond.refundPreferenceNode = preference
        }
        for key in ["consumptionPercentage", "deliveryStatus", "sampleContentProvided"] {
            guard let value = map[key] else { continue }
            guard let expression = PositionedExpression.read(value, "\(what).\(key)", log: log) else { return nil }
            switch key {
            case "consumptionPercentage": respond.consumptionPercentage = expression
            case "deliveryStatus": respond.deliveryStatus = expression
            default: respond.sampleContentProvided = expression
            }
        }
        return respond
    }
}
