/// The offers section of one decision: holdout bucket, vetoes,
/// rules in file order, offer resolution (splits, win-back eligibility in Apple's order, product
/// fit), shadow matches, limits, and the held-out counterfactual. An extension of
/// ``DecisionEvaluator`` (not a separate value) so that neither the evaluator nor the compiled
/// section is copied on every decision.
extension DecisionEvaluator {
    mutating func decideOffers(_ section: CompiledOffersSection) {
        let limits = ChoiceLimits(perCustomer: section.perCustomer, perOffer: section.perOffer, customerUnit: section.customerUnit)
        let chosen = choose(
            holdout: section.holdout, vetoes: section.vetoes, rules: section.rules, limits: limits,
            resolve: { evaluator, rule in
                evaluator.offer(for: rule).map { $0.map(RuleFit.fits) ?? .unfit("no offer of this rule fits the customer") }
            },
            offerId: { $0.id }, makesOffer: { _ in true },
            shadow: { evaluator, rule, choice in
                evaluator.decision.shadowMatches.append(.init(rule: rule.reference, offer: choice, refund: nil))
            })
        guard let chosen else { return }
        if chosen.heldOut {
            decision.counterfactual = chosen.choice
            decision.counterfactualRule = chosen.rule
        } else {
            decision.offer = chosen.choice
            decision.rule = chosen.rule
        }
    }

    /// The walk the offers and retention sections share: holdout bucket (``Decision/heldOut``),
    /// vetoes (``Decision/blockedBy``), then the rules in file order — mode, window, conditions,
    /// the rule's choice (`resolve`; `unfit`: nothing of the rule fits, try the next), the built-in
    /// ``AssignedMemberVeto`` for a choice that `makesOffer`, shadow mode, limits of the choice's
    /// offer (`offerId`; a choice without an offer counts against none).
    /// Answers the first choice made, and whether it was made for a held-out customer (the
    /// counterfactual); nil when none was.
    mutating func choose<Rule: ChoosingRule, Choice>(
        holdout: CompiledHoldout?, vetoes: [CompiledVeto], rules: [Rule], limits: ChoiceLimits,
        resolve: (inout DecisionEvaluator, Rule) -> Result<RuleFit<Choice>, EvaluationError>,
        offerId: (Choice) -> String?, makesOffer: (Choice) -> Bool,
        shadow: (inout DecisionEvaluator, Rule, Choice) -> Void
    ) -> (choice: Choice, rule: RuleReference, heldOut: Bool)? {
        var heldOut = false
        if let holdout {
            switch unitValue(holdout.unit) {
            case .success(let unit):
                let bucket = Bucketing.bucket(salt: holdout.salt, unit: unit)
                heldOut = bucket < holdout.basisPoints
                decision.buckets.append(
                    .init(purpose: "holdout", salt: holdout.salt, unit: unit, bucket: bucket, threshold: holdout.basisPoints))
            case .failure(let error):
                let reference = RuleReference(id: "holdout", file: holdout.unit.location.file, line: holdout.unit.location.line)
                decision.errors.append(.init(rule: reference, message: "no holdout bucket, so no offer: \(error.message)"))
                return nil
            }
        }
        decision.heldOut = heldOut
        if let veto = blockingVeto(vetoes) {
            decision.blockedBy = veto
            return nil
        }
        var isMember: Bool?
        for rule in rules {
            guard screen(rule.reference, mode: rule.mode, active: rule.active, conditions: rule.conditions) else {
                continue
            }
            let choice: Choice
            switch resolve(&self, rule) {
            case .failure(let error):
                record(.rule, rule.reference, .error, note: error.message, conditions: rule.conditions[...])
                decision.errors.append(.init(rule: rule.reference, message: error.message))
                continue
            case .success(.unfit(let note)):
                record(.rule, rule.reference, .noEligibleOffer, note: note, conditions: rule.conditions[...])
                continue
            case .success(.fits(let found)):
                choice = found
            }
            if makesOffer(choice) {
                if isMember == nil { isMember = isAssignedMember() }
                if isMember == true, !rule.readsOwnership {
                    record(.rule, rule.reference, .blocked, note: AssignedMemberVeto.note, conditions: rule.conditions[...])
                    if rule.mode == .shadow { continue }
                    decision.blockedBy = AssignedMemberVeto.reference
                    return nil
                }
            }
            if rule.mode == .shadow {
                record(.rule, rule.reference, .shadowMatched, conditions: rule.conditions[...])
                shadow(&self, rule, choice)
                continue
            }
            if let offer = offerId(choice), let exceeded = limitExceeded(limits, rule.reference, offer: offer) {
                record(.rule, rule.reference, .limitExceeded, note: exceeded, conditions: rule.conditions[...])
                if rule.onLimit == .stop { return nil }
                continue
            }
            record(.rule, rule.reference, .passed, conditions: rule.conditions[...])
            return (choice, rule.reference, heldOut)
        }
        return nil
    }

    func unitValue(_ unit: CompiledCondition) -> Result<String, EvaluationError> {
        switch unit.expression.evaluate(context) {
        case .value(.string(let text)): .success(text)
        case .value: .failure(EvaluationError("\(unit.source) is not text"))
        case .error(let error): .failure(error)
        }
    }

    /// The rule's offer for these facts; nil when none fits (win-back eligibility, product).
    mutating func offer(for rule: CompiledOfferRule) -> Result<Decision.OfferChoice?, EvaluationError> {
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
            return fits(id).map { $0 ? Decision.OfferChoice(id: id, type: .promotionalOffer, expiresAfter: expiresAfter) : nil }
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
                            id: id, type: .winBackOffer, expiresAfter: rule.expiresAfter.map(DecisionDuration.init(millis:))))
                    case .success(false): continue
                    }
                }
                return .success(nil)
            case .value: return .success(nil)
            }
        }
    }

    /// Whether catalog offer `id` is for the customer's current product.
    func fits(_ id: String) -> Result<Bool, EvaluationError> {
        guard let offer = bundle.catalog.offer(id), let probe = bundle.probes.subscriptionProductId else { return .success(false) }
        switch probe.evaluate(context) {
        case .value(.string(let product)): return .success(offer.productIds.contains(product))
        case .value: return .success(false)
        case .error(let error): return .failure(error)
        }
    }

    /// A note naming the exceeded limit, nil when within limits. Records every limit consulted.
    private mutating func limitExceeded(_ section: ChoiceLimits, _ rule: RuleReference, offer: String) -> String? {
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
        _ limit: OfferLimit, _ scope: LimitScope, _ rule: RuleReference, kind: String, offer: String?, now: Int64,
        named name: String
    ) -> String? {
        let used = limits.grantedCount(scope, window: limit.within, now: now)
        let exceeded = used >= limit.max
        decision.limits.append(.init(
            rule: rule.id, kind: kind, offer: offer, used: used, max: limit.max,
            within: DecisionDuration(millis: limit.within), exceeded: exceeded))
        return exceeded ? "\(name) reached: \(used)/\(limit.max) within \(RuleTime.renderDuration(limit.within))" : nil
    }
}

/// What the rules of the offers and retention sections have in common for ``DecisionEvaluator/choose``.
protocol ChoosingRule {
    var reference: RuleReference { get }
    var mode: RuleMode { get }
    var active: ActiveWindow? { get }
    var conditions: [CompiledCondition] { get }
    var onLimit: LimitBehavior { get }
}

extension CompiledOfferRule: ChoosingRule {}
extension CompiledRetentionRule: ChoosingRule {}

/// What a rule's choice came to for these facts: its choice, or why nothing of it fits (for the trace).
enum RuleFit<Choice> {
    case fits(Choice)
    case unfit(String)
}

/// The caps a section puts on the offers its rules choose.
struct ChoiceLimits {
    var perCustomer: OfferLimit?
    var perOffer: [String: OfferLimit]
    var customerUnit: CompiledCondition?
}
