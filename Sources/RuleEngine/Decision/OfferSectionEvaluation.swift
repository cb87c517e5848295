/// The offers section of one decision: holdout bucket, vetoes,
/// rules in file order, offer resolution (splits, win-back eligibility in Apple's order, product
/// fit), shadow matches, limits, and the held-out counterfactual. An extension of
/// ``DecisionEvaluator`` (not a separate value) so that neither the evaluator nor the compiled
/// section is copied on every decision.
extension DecisionEvaluator {
    mutating func decideOffers(_ section: CompiledOffersSection) {
        var heldOut = false
        if let holdout = section.holdout {
            switch unitValue(holdout.unit) {
            case .success(let unit):
                let bucket = Bucketing.bucket(salt: holdout.salt, unit: unit)
                heldOut = bucket < holdout.basisPoints
                decision.buckets.append(
                    .init(purpose: "holdout", salt: holdout.salt, unit: unit, bucket: bucket, threshold: holdout.basisPoints))
            case .failure(let error):
                let reference = RuleReference(id: "holdout", file: holdout.unit.location.file, line: holdout.unit.location.line)
                decision.errors.append(.init(rule: reference, message: "no holdout bucket, so no offer: \(error.message)"))
                return
            }
        }
        decision.heldOut = heldOut
        if let veto = blockingVeto(section.vetoes) {
            decision.blockedBy = veto
            return
        }
        for rule in section.rules {
            guard screen(rule.reference, mode: rule.mode, active: rule.active, conditions: rule.conditions) else {
                continue
            }
            let choice: Decision.OfferChoice
            switch offer(for: rule) {
            case .failure(let error):
                record(.rule, rule.reference, .error, note: error.message, conditions: rule.conditions[...])
                decision.errors.append(.init(rule: rule.reference, message: error.message))
                continue
            case .success(nil):
                record(
                    .rule, rule.reference, .noEligibleOffer, note: "no offer of this rule fits the customer",
                    conditions: rule.conditions[...])
                continue
            case .success(let found?):
                choice = found
            }
            if rule.mode == .shadow {
                record(.rule, rule.reference, .shadowMatched, conditions: rule.conditions[...])
                decision.shadowMatches.append(.init(rule: rule.reference, offer: choice, refund: nil))
                continue
            }
            if let exceeded = limitExceeded(section, rule, offer: choice.id) {
                record(.rule, rule.reference, .limitExceeded, note: exceeded, conditions: rule.conditions[...])
                if rule.onLimit == .stop { return }
                continue
            }
            record(.rule, rule.reference, .passed, conditions: rule.conditions[...])
            if heldOut {
                decision.counterfactual = choice
                decision.counterfactualRule = rule.reference
            } else {
                decision.offer = choice
                decision.rule = rule.reference
            }
            return
        }
    }

    private func unitValue(_ unit: CompiledCondition) -> Result<String, EvaluationError> {
        switch unit.expression.evaluate(context) {
        case .value(.string(let text)): .success(text)
        case .value: .failure(EvaluationError("\(unit.source) is not text"))
        case .error(let error): .failure(error)
        }
    }

    /// The rule's offer for these facts; nil when none fits (win-back eligibility, product).
    private mutating func offer(for rule: CompiledOfferRule) -> Result<Decision.OfferChoice?, EvaluationError> {
        let spec: OfferSpec
        switch rule.action {
        case .offer(let single):
            spec = single
        case .split(let split):
            switch unitValue(split.unit) {
            case .failure(let error): return .failure(error)
            case .success(let unit):
                let bucket = Bucketing.bucket(salt: split.salt, unit: unit)
                let index = split.variantIndex(forBucket: bucket)
                decision.buckets.append(
                    .init(purpose: "split:\(rule.reference.id)", salt: split.salt, unit: unit, bucket: bucket, threshold: index))
                spec = split.variants[index].offer
            }
        }
        switch spec {
        case .promotional(let id):
            let expiresAfter = rule.expiresAfter.map(DecisionDuration.init(millis:))
            return fits(id).map { $0 ? Decision.OfferChoice(id: id, type: "PROMOTIONAL", expiresAfter: expiresAfter) : nil }
        case .winBack(let allowed):
            guard let probe = bundle.probes.eligibleWinBackOfferIds else { return .success(nil) }
            switch probe.evaluate(context) {
            case .error(let error): return .failure(error)
            case .value(.list(let eligible)):
                for case .string(let id) in eligible where allowed.contains(id) {
                    switch fits(id) {
                    case .failure(let error): return .failure(error)
                    case .success(true):
                        return .success(Decision.OfferChoice(
                            id: id, type: "WIN_BACK", expiresAfter: rule.expiresAfter.map(DecisionDuration.init(millis:))))
                    case .success(false): continue
                    }
                }
                return .success(nil)
            case .value: return .success(nil)
            }
        }
    }

    /// Whether catalog offer `id` is for the customer's current product.
    private func fits(_ id: String) -> Result<Bool, EvaluationError> {
        guard let offer = bundle.catalog.offer(id), let probe = bundle.probes.subscriptionProductId else { return .success(false) }
        switch probe.evaluate(context) {
        case .value(.string(let product)): return .success(offer.productIds.contains(product))
        case .value: return .success(false)
        case .error(let error): return .failure(error)
        }
    }

    /// A note naming the exceeded limit, nil when within limits. Records every limit consulted.
    private mutating func limitExceeded(_ section: CompiledOffersSection, _ rule: CompiledOfferRule, offer: String) -> String? {
        let now = context.now ?? 0
        var note: String?
        if let limit = section.perCustomer, let unit = section.customerUnit {
            switch unitValue(unit) {
            case .success(let customer):
                note = check(limit, .customer(customer), rule, kind: "perCustomer", offer: nil, now: now, named: "perCustomer limit")
            case .failure(let error):
                note = "perCustomer limit cannot be checked: \(error.message)"
            }
        }
        if note == nil, let limit = section.perOffer[offer] {
            note = check(limit, .offer(offer), rule, kind: "perOffer", offer: offer, now: now, named: "perOffer limit of \(offer)")
        }
        return note
    }

    /// Counts the grants `limit` bounds in `scope` and records the check; the note naming the limit
    /// (`name`) when it is reached, nil otherwise.
    private mutating func check(
        _ limit: OfferLimit, _ scope: LimitScope, _ rule: CompiledOfferRule, kind: String, offer: String?, now: Int64,
        named name: String
    ) -> String? {
        let used = limits.grantedCount(scope, window: limit.within, now: now)
        let exceeded = used >= limit.max
        decision.limits.append(.init(
            rule: rule.reference.id, kind: kind, offer: offer, used: used, max: limit.max,
            within: DecisionDuration(millis: limit.within), exceeded: exceeded))
        return exceeded ? "\(name) reached: \(used)/\(limit.max) within \(RuleTime.renderDuration(limit.within))" : nil
    }
}
