import AppStoreServer

/// Runs one decision over a compiled bundle: `appliesTo`, holdout, vetoes,
/// rules in file order with windows, limits, splits, shadow mode and win-back eligibility, then
/// (only when asked to explain) the condition trace. The fast path evaluates each condition with
/// `isTrue` and records only indices; explanations re-run the few conditions the trace shows
/// with the tracing evaluator. The offers section is tried first; the refunds section decides
/// only when the offers section does not apply (their `appliesTo` normally exclude each other).
struct DecisionEvaluator {
    let bundle: RuleBundle
    let context: EvaluationContext
    let limits: any LimitsPort
    let messageStates: any RetentionMessageStates
    let explain: Bool
    var decision: Decision
    var steps: [TraceStep] = []

    init(bundle: RuleBundle, context: EvaluationContext, limits: any LimitsPort,
         messageStates: any RetentionMessageStates = AllMessagesApproved(), explain: Bool) {
        self.bundle = bundle
        self.context = context
        self.limits = limits
        self.messageStates = messageStates
        self.explain = explain
        self.decision = Decision(bundle: bundle.hash, now: context.now.map(DecisionInstant.init(millis:)))
    }

    /// A trace step before explanation: which conditions to explain.
    struct TraceStep {
        var kind: DecisionTraceEntry.Kind
        var rule: RuleReference?
        var outcome: DecisionTraceEntry.Outcome
        var note: String?
        var conditions: ArraySlice<CompiledCondition>
    }

    /// How a rule's `when` list came out.
    enum ConditionsOutcome {
        case matched
        case failed(index: Int)
        case errored(index: Int, EvaluationError)
    }

    mutating func run() -> Decision {
        if let offers = bundle.offers, applies(offers.appliesTo) {
            decision.section = .offers
            decideOffers(offers)
        } else if let refunds = bundle.refunds, applies(refunds.appliesTo) {
            decision.section = .refunds
            decideRefunds(refunds)
        }
        if explain { decision.trace = steps.map(explained) }
        return decision
    }

    /// Decides a realtime Retention Messaging request: the retention section only.
    mutating func runRetention() -> Decision {
        if let retention = bundle.retention, applies(retention.appliesTo) {
            decision.section = .retention
            decideRetention(retention)
        }
        if explain { decision.trace = steps.map(explained) }
        return decision
    }

    // MARK: - Shared steps

    /// Whether a section's `appliesTo` holds; an error means it does not (and is recorded).
    mutating func applies(_ condition: CompiledCondition?) -> Bool {
        guard let condition else { return true }
        switch condition.expression.isTrue(context) {
        case .success(true):
            record(.appliesTo, nil, .passed, conditions: [condition][...])
            return true
        case .success(false):
            record(.appliesTo, nil, .notMatched, conditions: [condition][...])
            return false
        case .failure(let error):
            record(.appliesTo, nil, .error, note: error.message, conditions: [condition][...])
            decision.errors.append(.init(rule: RuleReference(id: "appliesTo", file: condition.location.file, line: condition.location.line), message: error.message))
            return false
        }
    }

    /// The first veto that is true or errors (fail closed), nil when none blocks.
    mutating func blockingVeto(_ vetoes: [CompiledVeto]) -> RuleReference? {
        for veto in vetoes {
            let reference = RuleReference(id: veto.id, file: veto.location.file, line: veto.location.line)
            switch veto.condition.expression.isTrue(context) {
            case .success(false):
                record(.veto, reference, .passed, conditions: [veto.condition][...])
            case .success(true):
                record(.veto, reference, .blocked, conditions: [veto.condition][...])
                return reference
            case .failure(let error):
                record(
                    .veto, reference, .blocked, note: "could not evaluate, so it blocks: \(error.message)",
                    conditions: [veto.condition][...])
                decision.errors.append(.init(rule: reference, message: error.message))
                return reference
            }
        }
        return nil
    }

    /// Evaluates a `when` list, stopping at the first false or erroring entry.
    func evaluate(_ conditions: [CompiledCondition]) -> ConditionsOutcome {
        for index in conditions.indices {
            switch conditions[index].expression.isTrue(context) {
            case .success(true): continue
            case .success(false): return .failed(index: index)
            case .failure(let error): return .errored(index: index, error)
            }
        }
        return .matched
    }

    /// Mode, window and conditions of a rule: true when the rule matched; otherwise the step is
    /// recorded as not matching (and an error counted).
    mutating func screen(
        _ reference: RuleReference, mode: RuleMode, active: ActiveWindow?, conditions: [CompiledCondition]
    ) -> Bool {
        if mode == .off {
            record(.rule, reference, .off, conditions: [])
            return false
        }
        if let active {
            guard let now = context.now, active.contains(now) else {
                let note = explain ? windowNote(active) : nil
                record(.rule, reference, .inactive, note: note, conditions: [])
                return false
            }
        }
        switch evaluate(conditions) {
        case .matched:
            return true
        case .failed(let index):
            record(.rule, reference, .notMatched, conditions: conditions[index...index])
        case .errored(let index, let error):
            record(.rule, reference, .error, note: error.message, conditions: conditions[index...index])
            decision.errors.append(.init(rule: reference, message: error.message))
        }
        return false
    }

    /// Records a trace step; nothing is built on the fast path (`explain == false`).
    mutating func record(
        _ kind: DecisionTraceEntry.Kind, _ rule: RuleReference?, _ outcome: DecisionTraceEntry.Outcome,
        note: @autoclosure () -> String? = nil, conditions: @autoclosure () -> ArraySlice<CompiledCondition>
    ) {
        guard explain else { return }
        steps.append(TraceStep(kind: kind, rule: rule, outcome: outcome, note: note(), conditions: conditions()))
    }

    private func windowNote(_ window: ActiveWindow) -> String {
        let from = window.from.map(RuleTime.renderTimestamp) ?? "always"
        let until = window.until.map(RuleTime.renderTimestamp) ?? "open-ended"
        return "active \(from) to \(until); now is \(context.now.map(RuleTime.renderTimestamp) ?? "unknown")"
    }

    private func explained(_ step: TraceStep) -> DecisionTraceEntry {
        DecisionTraceEntry(
            kind: step.kind, rule: step.rule, outcome: step.outcome, note: step.note,
            conditions: step.conditions.map { ConditionRecord($0, trace: $0.expression.explain(context)) })
    }

    // MARK: - Refunds

    private mutating func decideRefunds(_ section: CompiledRefundsSection) {
        let builder = RefundResponseBuilder(context: context, productType: bundle.probes.purchaseProductType)
        if let veto = blockingVeto(section.vetoes) {
            decision.blockedBy = veto
            decision.refund = defaultResponse(section, builder)
            return
        }
        for rule in section.rules {
            guard screen(rule.reference, mode: rule.mode, active: rule.active, conditions: rule.conditions) else { continue }
            switch builder.build(rule.response) {
            case .failure(let error):
                record(.rule, rule.reference, .error, note: error.message, conditions: rule.conditions[...])
                decision.errors.append(.init(rule: rule.reference, message: error.message))
            case .success(let built) where rule.mode == .shadow:
                record(.rule, rule.reference, .shadowMatched, note: Self.correctionNote(built.corrections),
                       conditions: rule.conditions[...])
                decision.shadowMatches.append(.init(
                    rule: rule.reference, offer: nil, refund: built.response, corrections: built.corrections))
            case .success(let built):
                record(.rule, rule.reference, .passed, note: Self.correctionNote(built.corrections),
                       conditions: rule.conditions[...])
                decision.rule = rule.reference
                decision.refund = built.response
                decision.corrections = built.corrections.map { Decision.Correction(rule: rule.reference, $0) }
                return
            }
        }
        decision.refund = defaultResponse(section, builder)
    }

    private mutating func defaultResponse(_ section: CompiledRefundsSection, _ builder: RefundResponseBuilder)
        -> Decision.RefundResponse
    {
        let none = Decision.RefundResponse(refundPreference: nil, consumptionPercentage: nil, deliveryStatus: nil, sampleContentProvided: nil)
        guard let fallback = section.defaultResponse else { return none }
        let reference = RuleReference(id: "default", file: "", line: 0)
        switch builder.build(fallback) {
        case .success(let built):
            decision.corrections = built.corrections.map { Decision.Correction(rule: reference, $0) }
            return built.response
        case .failure(let error):
            decision.errors.append(.init(rule: reference, message: error.message))
            return none
        }
    }

    /// The trace note for a response corrected for Apple, nil when nothing was corrected.
    private static func correctionNote(_ corrections: [ConsumptionCorrection]) -> String? {
        guard !corrections.isEmpty else { return nil }
        return "answer corrected for Apple: " + corrections.map {
            "\($0.field) \($0.from ?? "omitted") → \($0.to ?? "omitted")"
        }.joined(separator: "; ")
    }
}

extension RuleBundle {
    /// The customer `perCustomer` limits of `section` (offers or retention) count for in `facts`
    /// (the holdout's unit, else the subscription's originalTransactionId); nil without a
    /// `perCustomer` limit or when the unit cannot be evaluated (the decision then reports why).
    public func customerUnit(_ facts: Facts, now: Int64? = nil, section: Decision.Section = .offers) -> String? {
        let unit = section == .retention ? retention?.customerUnit : offers?.customerUnit
        guard let unit else { return nil }
        if case .value(.string(let text)) = unit.expression.evaluate(EvaluationContext(facts: facts, now: now)) { return text }
        return nil
    }

    /// Decides for `facts` at `now` (default: the facts' `event.signedDate`), asking `limits` for
    /// grant counts. With `explain` (the default) the decision carries its condition trace; the
    /// fast path (`explain: false`) still names the rule, buckets, shadow matches, limits and errors.
    public func decide(
        _ facts: Facts, now: Int64? = nil, limits: any LimitsPort = NoLimitsRecorded(), explain: Bool = true
    ) -> Decision {
        var evaluator = DecisionEvaluator(
            bundle: self, context: EvaluationContext(facts: facts, now: now), limits: limits, explain: explain)
        return evaluator.run()
    }

    /// Decides a Retention Messaging realtime request (facts with `event.type` `REALTIME_REQUEST`
    /// and `event.userLocale`) with the retention section only; `messageStates` says which
    /// message texts Apple approved. A decision without ``Decision/answer`` lets the App Store
    /// fall back.
    public func decideRetention(
        _ facts: Facts, now: Int64? = nil, limits: any LimitsPort = NoLimitsRecorded(),
        messageStates: any RetentionMessageStates = AllMessagesApproved(), explain: Bool = true
    ) -> Decision {
        var evaluator = DecisionEvaluator(
            bundle: self, context: EvaluationContext(facts: facts, now: now), limits: limits, messageStates: messageStates,
            explain: explain)
        return evaluator.runRetention()
    }
}
