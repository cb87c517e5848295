/// A rule or veto reduced to what the diff compares: its identity, where it is, and each aspect
/// that changes decisions as text (the description is left out: it changes nothing).
struct RuleShape {
    var kind: String
    var id: String
    var location: BundleLocation
    var conditions: [String]
    /// Named aspects in a fixed order: offer or answer, mode, window, limit behaviour, expiry.
    var aspects: [(name: String, value: String)]

    var key: String { "\(kind):\(id)" }

    /// What differs from `before`, one text per aspect.
    func differences(from before: RuleShape) -> [String] {
        var details: [String] = []
        let added = conditions.filter { !before.conditions.contains($0) }
        let removed = before.conditions.filter { !conditions.contains($0) }
        if !added.isEmpty || !removed.isEmpty {
            details.append("when: " + (added.map { "+ \"\($0)\"" } + removed.map { "− \"\($0)\"" }).joined(separator: ", "))
        } else if conditions != before.conditions {
            details.append("when: conditions reordered")
        }
        let old = Dictionary(before.aspects.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        for aspect in aspects where old[aspect.name] != aspect.value {
            details.append("\(aspect.name) \(old[aspect.name] ?? "unset") → \(aspect.value)")
        }
        return details
    }

    static func offers(_ bundle: RuleBundle) -> [RuleShape] {
        guard let section = bundle.offers else { return [] }
        return section.vetoes.map(veto) + section.rules.map { rule in
            RuleShape(kind: "rule", id: rule.reference.id, location: location(rule.reference),
                      conditions: rule.conditions.map(\.source), aspects: [
                          ("offer", text(rule.action)), ("mode", rule.mode.rawValue), ("active", text(rule.active)),
                          ("onLimit", rule.onLimit.rawValue),
                          ("expiresAfter", rule.expiresAfter.map(RuleTime.renderDuration) ?? "catalog"),
                      ])
        }
    }

    static func refunds(_ bundle: RuleBundle) -> [RuleShape] {
        guard let section = bundle.refunds else { return [] }
        return section.vetoes.map(veto) + section.rules.map { rule in
            RuleShape(kind: "rule", id: rule.reference.id, location: location(rule.reference),
                      conditions: rule.conditions.map(\.source), aspects: [
                          ("respond", text(rule.response)), ("mode", rule.mode.rawValue), ("active", text(rule.active)),
                      ])
        }
    }

    static func retention(_ bundle: RuleBundle) -> [RuleShape] {
        guard let section = bundle.retention else { return [] }
        return section.vetoes.map(veto) + section.rules.map { rule in
            RuleShape(kind: "rule", id: rule.reference.id, location: location(rule.reference),
                      conditions: rule.conditions.map(\.source), aspects: [
                          ("answer", text(rule.action)), ("mode", rule.mode.rawValue), ("active", text(rule.active)),
                          ("onLimit", rule.onLimit.rawValue),
                      ])
        }
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
        case .split(_, let salt, let variants):
            return "split \(salt): " + variants.map { "\($0.weight)% \(answer($0.answer))" }.joined(separator: ", ")
        }
    }

    private static func veto(_ veto: CompiledVeto) -> RuleShape {
        RuleShape(kind: "veto", id: veto.id, location: veto.location, conditions: [veto.condition.source], aspects: [])
    }

    private static func location(_ reference: RuleReference) -> BundleLocation {
        BundleLocation(file: reference.file, line: reference.line, column: 1)
    }

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

/// A section setting reduced to text for the diff: appliesTo, holdout, limits, the default answer.
struct SettingShape {
    var kind: String
    var name: String
    var value: String
    var location: BundleLocation?

    static func offers(_ bundle: RuleBundle) -> [SettingShape] {
        guard let section = bundle.offers else { return [] }
        var settings: [SettingShape] = []
        if let appliesTo = section.appliesTo {
            settings.append(SettingShape(kind: "appliesTo", name: "appliesTo", value: appliesTo.source, location: appliesTo.location))
        }
        if let holdout = section.holdout {
            let percent = holdout.basisPoints % 100 == 0 ? "\(holdout.basisPoints / 100)" : "\(Double(holdout.basisPoints) / 100)"
            settings.append(SettingShape(
                kind: "holdout", name: "holdout", value: "\(percent)% by \(holdout.unit.source) (salt \(holdout.salt))",
                location: holdout.unit.location))
        }
        if let limit = section.perCustomer {
            settings.append(SettingShape(kind: "limit", name: "perCustomer", value: text(limit), location: nil))
        }
        for (offer, limit) in section.perOffer.sorted(by: { $0.key < $1.key }) {
            settings.append(SettingShape(kind: "limit", name: "perOffer \(offer)", value: text(limit), location: nil))
        }
        return settings
    }

    static func refunds(_ bundle: RuleBundle) -> [SettingShape] {
        guard let section = bundle.refunds else { return [] }
        var settings: [SettingShape] = []
        if let appliesTo = section.appliesTo {
            settings.append(SettingShape(kind: "appliesTo", name: "appliesTo", value: appliesTo.source, location: appliesTo.location))
        }
        if let response = section.defaultResponse {
            settings.append(SettingShape(kind: "default", name: "default", value: RuleShape.text(response), location: nil))
        }
        return settings
    }

    private static func text(_ limit: OfferLimit) -> String {
        "max \(limit.max) within \(RuleTime.renderDuration(limit.within))"
    }
}
