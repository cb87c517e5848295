/// The settings of each section (`appliesTo`, the limits, the refund default) and the bundle's
/// holdout as diff items.
extension BundleDiff {
    /// The offers section's `appliesTo` and limits.
    static func offerSettings(_ bundle: RuleBundle) -> [BundleDiffItem] {
        guard let section = bundle.offers else { return [] }
        return appliesTo(section.appliesTo, .offers)
            + limits(perCustomer: section.perCustomer, perOffer: section.perOffer, .offers)
    }

    /// The refunds section's `appliesTo` and default answer.
    static func refundSettings(_ bundle: RuleBundle) -> [BundleDiffItem] {
        guard let section = bundle.refunds else { return [] }
        var items = appliesTo(section.appliesTo, .refunds)
        if let response = section.defaultResponse, let location = section.defaultLocation {
            items.append(BundleDiffItem(section: .refunds, kind: "default", name: "default", location: location, value: text(response)))
        }
        return items
    }

    /// The retention section's `appliesTo` and limits.
    static func retentionSettings(_ bundle: RuleBundle) -> [BundleDiffItem] {
        guard let section = bundle.retention else { return [] }
        return appliesTo(section.appliesTo, .retention)
            + limits(perCustomer: section.perCustomer, perOffer: section.perOffer, .retention)
    }

    /// The holdout, which the offers and retention sections share: its share, unit and salt.
    static func holdout(_ bundle: RuleBundle) -> [BundleDiffItem] {
        guard let holdout = bundle.holdout else { return [] }
        let percent = holdout.basisPoints % 100 == 0 ? "\(holdout.basisPoints / 100)%" : "\(Double(holdout.basisPoints) / 100)%"
        return [BundleDiffItem(
            section: nil, kind: "holdout", name: "holdout", location: holdout.location,
            summary: "\(percent) by \(holdout.unit.source) (salt \(holdout.salt))",
            aspects: [BundleDiffAspect(name: "percent", text: percent), BundleDiffAspect(name: "unit", text: holdout.unit.source),
                      BundleDiffAspect(name: "salt", text: holdout.salt)])]
    }

    private static func appliesTo(_ condition: CompiledCondition?, _ section: Decision.Section) -> [BundleDiffItem] {
        guard let condition else { return [] }
        return [BundleDiffItem(section: section, kind: "appliesTo", name: "appliesTo", location: condition.location, value: condition.source)]
    }

    private static func limits(perCustomer: OfferLimit?, perOffer: [String: OfferLimit], _ section: Decision.Section) -> [BundleDiffItem] {
        func item(_ name: String, _ limit: OfferLimit) -> BundleDiffItem {
            BundleDiffItem(section: section, kind: "limit", name: name, location: limit.location,
                           value: "max \(limit.max) within \(RuleTime.renderDuration(limit.within))")
        }
        return (perCustomer.map { [item("perCustomer", $0)] } ?? [])
            + perOffer.sorted { ($0.value.location.line, $0.key) < ($1.value.location.line, $1.key) }.map { item("perOffer \($0.key)", $0.value) }
    }
}
