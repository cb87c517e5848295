/// The rules and vetoes of each section as diff items: each rule's conditions, and its offer or
/// answer, mode, window and limit behaviour as aspects.
extension BundleDiff {
    /// The offers section's vetoes and rules, each list in priority order.
    static func offerRules(_ bundle: RuleBundle) -> (vetoes: [BundleDiffItem], rules: [BundleDiffItem]) {
        guard let section = bundle.offers else { return ([], []) }
        return (section.vetoes.map { veto($0, .offers) }, section.rules.map { rule in
            let offer = text(rule.action)
            return ruleItem(.offers, rule.reference, summary: offer, conditions: rule.conditions, aspects: [
                ("offer", offer), ("mode", rule.mode.rawValue), ("active", text(rule.active)), ("onLimit", rule.onLimit.rawValue),
                ("expiresAfter", rule.expiresAfter.map(RuleTime.renderDuration) ?? "catalog"),
            ])
        })
    }

    /// The refunds section's vetoes and rules, each list in priority order.
    static func refundRules(_ bundle: RuleBundle) -> (vetoes: [BundleDiffItem], rules: [BundleDiffItem]) {
        guard let section = bundle.refunds else { return ([], []) }
        return (section.vetoes.map { veto($0, .refunds) }, section.rules.map { rule in
            let response = text(rule.response)
            return ruleItem(.refunds, rule.reference, summary: response, conditions: rule.conditions, aspects: [
                ("respond", response), ("mode", rule.mode.rawValue), ("active", text(rule.active)),
            ])
        })
    }

    /// The retention section's vetoes and rules, each list in priority order.
    static func retentionRules(_ bundle: RuleBundle) -> (vetoes: [BundleDiffItem], rules: [BundleDiffItem]) {
        guard let section = bundle.retention else { return ([], []) }
        return (section.vetoes.map { veto($0, .retention) }, section.rules.map { rule in
            let answer = text(rule.action)
            return ruleItem(.retention, rule.reference, summary: answer, conditions: rule.conditions, aspects: [
                ("answer", answer), ("mode", rule.mode.rawValue), ("active", text(rule.active)), ("onLimit", rule.onLimit.rawValue),
            ])
        })
    }

    private static func ruleItem(
        _ section: Decision.Section, _ reference: RuleReference, summary: String, conditions: [CompiledCondition],
        aspects: [(String, String)]
    ) -> BundleDiffItem {
        BundleDiffItem(
            section: section, kind: "rule", name: reference.id,
            location: BundleLocation(file: reference.file, line: reference.line, column: 1), summary: summary,
            conditions: conditions.map(\.source), aspects: aspects.map { BundleDiffAspect(name: $0.0, text: $0.1) })
    }

    private static func veto(_ veto: CompiledVeto, _ section: Decision.Section) -> BundleDiffItem {
        BundleDiffItem(section: section, kind: "veto", name: veto.id, location: veto.location,
                       summary: "if \(veto.condition.source)", conditions: [veto.condition.source], aspects: [])
    }

    /// `message m + offer o (V1)`, `message m → product p (MONTHLY)`, or the split's variants.
    static func text(_ action: CompiledRetentionRule.Action) -> String {
        func answer(_ spec: AnswerSpec) -> String {
            var text = "message \(spec.message)"
            if let offer = spec.offerId { text += " + offer \(offer)" + (spec.signature == .v1 ? " (V1)" : "") }
            if let product = spec.alternateProductId { text += " → product \(product)" + (spec.billingPlanType.map { " (\($0))" } ?? "") }
            return text
        }
        switch action {
        case .answer(let spec): return answer(spec)
        case .split(let unit, let salt, let variants):
            return "split by \(unit.source) (salt \(salt)): " + variants.map { "\($0.weight)% \(answer($0.answer))" }.joined(separator: ", ")
        }
    }

    /// `promo-annual-50`, `WIN_BACK among [a, b]`, or the split's unit, salt and variants.
    static func text(_ action: OfferAction) -> String {
        switch action {
        case .offer(let spec): text(spec)
        case .split(let split):
            "split by \(split.unit.source) (salt \(split.salt)): "
                + split.variants.map { "\($0.weight)% \(text($0.offer))" }.joined(separator: ", ")
        }
    }

    static func text(_ spec: OfferSpec) -> String {
        switch spec {
        case .promotional(let id): id
        case .winBack(let allowed): "WIN_BACK among [\(allowed.joined(separator: ", "))]"
        }
    }

    static func text(_ window: ActiveWindow?) -> String {
        guard let window else { return "always" }
        return (window.from.map(RuleTime.renderTimestamp) ?? "always") + " to " + (window.until.map(RuleTime.renderTimestamp) ?? "open-ended")
    }

    /// `DECLINE, deliveryStatus DELIVERED, consumptionPercentage = usage.consumptionPercentage`.
    static func text(_ response: CompiledResponse) -> String {
        func field<Value>(_ name: String, _ value: ResponseField<Value>?) -> String? {
            switch value {
            case nil: nil
            case .fixed(let fixed): "\(name) \(fixed)"
            case .computed(let condition): "\(name) = \(condition.source)"
            }
        }
        return ([response.refundPreference ?? ReplayVerdict.omittedValue]
            + [field("consumptionPercentage", response.consumptionPercentage), field("deliveryStatus", response.deliveryStatus),
               field("sampleContentProvided", response.sampleContentProvided)].compactMap { $0 })
            .joined(separator: ", ")
    }
}
