/// The retention section of one realtime request: the walk shared with the offers section
/// (holdout, vetoes, rules, splits, shadow, limits), where a rule's choice is an answer — its
/// message in the customer's locale, approved by Apple, with an offer for the customer's product
/// or an alternate product of the subscription's group. When nothing of a rule fits, the next
/// rule is tried; when no rule answers, the App Store falls back.
extension DecisionEvaluator {
    mutating func decideRetention(_ section: CompiledRetentionSection) {
        let limits = ChoiceLimits(perCustomer: section.perCustomer, perOffer: section.perOffer, customerUnit: section.customerUnit)
        let chosen = choose(
            holdout: bundle.holdout, vetoes: section.vetoes, rules: section.rules, limits: limits,
            resolve: { $0.answer(for: $1) }, offerId: { $0.offer?.id },
            makesOffer: { $0.offer != nil || $0.alternateProduct != nil },
            shadow: { evaluator, rule, answer in
                evaluator.decision.shadowMatches.append(.init(rule: rule.reference, offer: answer.offer, refund: nil, answer: answer))
            })
        guard let chosen else { return }
        if chosen.heldOut {
            decision.counterfactualAnswer = chosen.choice
            decision.counterfactual = chosen.choice.offer
            decision.counterfactualRule = chosen.rule
        } else {
            decision.answer = chosen.choice
            decision.offer = chosen.choice.offer
            decision.rule = chosen.rule
        }
    }

    /// The rule's answer for these facts, or why it does not fit (the walk puts it in the trace).
    private mutating func answer(for rule: CompiledRetentionRule) -> Result<RuleFit<Decision.Answer>, EvaluationError> {
        let spec: AnswerSpec
        switch rule.action {
        case .answer(let single):
            spec = single
        case .split(let unit, let salt, let variants):
            switch unitValue(unit) {
            case .failure(let error): return .failure(error)
            case .success(let value):
                let bucket = Bucketing.bucket(salt: salt, unit: value)
                let index = Bucketing.variantIndex(weights: variants.map(\.weight), bucket: bucket)
                decision.buckets.append(.init(purpose: "split:\(rule.reference.id)", salt: salt, unit: value, bucket: bucket, threshold: index))
                spec = variants[index].answer
            }
        }
        func unfit(_ note: String) -> Result<RuleFit<Decision.Answer>, EvaluationError> { .success(.unfit(note)) }
        guard let message = bundle.messages.message(spec.message) else { return unfit("message \(spec.message) is not declared") }
        var locale = message.locales[0].locale
        if let probe = bundle.probes.userLocale, case .value(.string(let requested)) = probe.evaluate(context) { locale = requested }
        guard let text = message.localized(for: locale) else { return unfit("message \(message.id) has no text for \(locale)") }
        if let reason = messageStates.unapproved(text) { return unfit("message \(message.id) (\(text.locale)) \(reason)") }
        var offer: Decision.OfferChoice?
        if let id = spec.offerId {
            switch fits(id) {
            case .failure(let error): return .failure(error)
            case .success(false): return unfit("offer \(id) is not for the customer's product")
            case .success(true): offer = Decision.OfferChoice(id: id, type: .promotionalOffer)
            }
        }
        if let alternate = spec.alternateProductId {
            switch subscriptionProduct() {
            case .failure(let error): return .failure(error)
            case .success(let current):
                guard let current, current != alternate,
                    let group = bundle.catalog.productGroups[alternate], bundle.catalog.productGroups[current] == group
                else { return unfit("\(alternate) is not another product of the subscription's group") }
            }
        }
        return .success(.fits(Decision.Answer(
            message: message.id, locale: text.locale, messageIdentifier: text.identifier, offer: offer,
            signature: offer == nil ? nil : spec.signature, alternateProduct: spec.alternateProductId,
            billingPlanType: spec.billingPlanType)))
    }

    /// `subscription.productId`, nil when the facts have none.
    private func subscriptionProduct() -> Result<String?, EvaluationError> {
        guard let probe = bundle.probes.subscriptionProductId else { return .success(nil) }
        switch probe.evaluate(context) {
        case .value(.string(let product)): return .success(product)
        case .value: return .success(nil)
        case .error(let error): return .failure(error)
        }
    }
}
