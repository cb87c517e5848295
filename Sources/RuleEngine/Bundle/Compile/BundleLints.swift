/// The bundle-wide checks that need the whole compiled bundle:
/// unreachable rules (after one that always decides) and per-currency tables missing a catalog
/// currency are errors; unused segments and constants, a split reusing the holdout's salt, and an
/// offer rule that can fire on AUTO_RENEW_DISABLED without reading `subscription.commitment`
/// (``commitment(_:analysis:)``) are warnings.
struct BundleLints {
    let log: DiagnosticLog

    func run(
        syntax: [RuleFileSyntax], environment: BundleEnvironmentBuilder.Result, offers: CompiledOffersSection?,
        refunds: CompiledRefundsSection?, catalog: OfferCatalog
    ) {
        unreachableOffers(offers)
        unreachableRefunds(refunds)
        unused(environment, offers: offers, refunds: refunds)
        currencyTables(environment, catalog: catalog)
        salts(syntax)
        commitment(offers, analysis: ConditionAnalysis(
            constants: environment.environment.constants, segments: environment.environment.segments.mapValues(\.source)))
    }

    private func unreachableOffers(_ section: CompiledOffersSection?) {
        guard let section else { return }
        let decider = section.rules.first { rule in
            guard rule.mode == .live, rule.conditions.isEmpty, rule.active == nil else { return false }
            let offers: [OfferSpec]
            switch rule.action {
            case .offer(let spec): offers = [spec]
            case .split(let split): offers = split.variants.map(\.offer)
            }
            let canFallThrough = offers.contains { spec in
                switch spec {
                case .winBack: return true  // the customer may be eligible for none of them
                case .promotional(let id): return rule.onLimit == .next && (section.perCustomer != nil || section.perOffer[id] != nil)
                }
            }
            return !canFallThrough
        }
        guard let decider else { return }
        for rule in section.rules.drop(while: { $0.reference != decider.reference }).dropFirst() {
            reportUnreachable(rule.reference, after: decider.reference)
        }
    }

    private func unreachableRefunds(_ section: CompiledRefundsSection?) {
        guard let section else { return }
        guard let decider = section.rules.first(where: { $0.mode == .live && $0.conditions.isEmpty && $0.active == nil })
        else { return }
        for rule in section.rules.drop(while: { $0.reference != decider.reference }).dropFirst() {
            reportUnreachable(rule.reference, after: decider.reference)
        }
    }

    private func reportUnreachable(_ rule: RuleReference, after decider: RuleReference) {
        log.report(
            .error, "rule \(rule.id) can never be reached: rule \(decider.id) (line \(decider.line)) above it always decides",
            at: BundleLocation(file: rule.file, line: rule.line, column: columnOfId(rule)), length: rule.id.unicodeScalars.count,
            help: "give rule \(decider.id) conditions, or move it last")
    }

    /// The column of the rule's id on its `id:` line.
    func columnOfId(_ rule: RuleReference) -> Int {
        let line = log.sourceLine(rule.file, rule.line)
        guard let range = line.range(of: rule.id) else { return 1 }
        return line.unicodeScalars.distance(from: line.unicodeScalars.startIndex, to: range.lowerBound) + 1
    }

    private func unused(_ environment: BundleEnvironmentBuilder.Result, offers: CompiledOffersSection?, refunds: CompiledRefundsSection?) {
        var expressions: [CompiledExpression] = environment.segments.map(\.compiled)
        if let offers {
            expressions += [offers.appliesTo, offers.holdout?.unit].compactMap { $0?.expression }
            expressions += offers.vetoes.map(\.condition.expression)
            for rule in offers.rules {
                expressions += rule.conditions.map(\.expression)
                if case .split(let split) = rule.action { expressions.append(split.unit.expression) }
            }
        }
        if let refunds {
            expressions += [refunds.appliesTo?.expression].compactMap { $0 }
            expressions += refunds.vetoes.map(\.condition.expression)
            let responses = [refunds.defaultResponse].compactMap { $0 } + refunds.rules.map(\.response)
            for rule in refunds.rules { expressions += rule.conditions.map(\.expression) }
            for response in responses {
                if case .computed(let field)? = response.consumptionPercentage { expressions.append(field.expression) }
                if case .computed(let field)? = response.deliveryStatus { expressions.append(field.expression) }
                if case .computed(let field)? = response.sampleContentProvided { expressions.append(field.expression) }
            }
        }
        let usedSegments = expressions.reduce(into: Set<String>()) { $0.formUnion($1.referencedSegments) }
        var usedConstants = expressions.reduce(into: Set<String>()) { $0.formUnion($1.referencedConstants) }
        for constant in environment.constants { usedConstants.formUnion(constant.references) }
        // With errors, a failed expression's references are unknown: "never used" would mislead.
        guard !log.hasErrors else { return }
        for (segment, _) in environment.segments where !usedSegments.contains(segment.name) {
            log.warning("segment '\(segment.name)' is never used", at: segment.keyNode)
        }
        for (constant, _) in environment.constants where !usedConstants.contains(constant.name) {
            log.warning("constant '\(constant.name)' is never used", at: constant.keyNode)
        }
    }

    /// A table whose keys are all currency codes must cover every currency the catalog sells in.
    private func currencyTables(_ environment: BundleEnvironmentBuilder.Result, catalog: OfferCatalog) {
        for (constant, _) in environment.constants {
            guard case .table(let entries) = constant.value, !entries.isEmpty,
                entries.allSatisfy({ Money.isCurrencyCode($0.key) })
            else { continue }
            let keys = Set(entries.map(\.key))
            let missing = catalog.currencies.filter { !keys.contains($0) }
            guard !missing.isEmpty else { continue }
            log.error(
                "constants.\(constant.name) has no entry for \(missing.joined(separator: ", ")), which catalog.yaml sells in",
                at: constant.keyNode, help: "add an entry per currency; a missing one makes the rule an error at run time")
        }
    }

    private func salts(_ files: [RuleFileSyntax]) {
        guard let holdout = files.lazy.compactMap(\.holdout).first else { return }
        for rule in files.compactMap(\.offers).flatMap(\.rules) {
            guard let split = rule.split, split.salt == holdout.salt else { continue }
            log.warning(
                "split of rule \(rule.header.id) uses the holdout's salt, so its variants correlate with the holdout", at: split.node,
                help: "give every split its own salt")
        }
    }
}
