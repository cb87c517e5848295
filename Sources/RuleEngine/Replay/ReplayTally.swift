/// The running counts of a replay, turned into a ``ReplayReport`` at the end: totals, per-rule
/// counts under each bundle, transitions with examples, outcomes, offers by day and errors.
struct ReplayTally: Sendable {
    private struct TransitionKey: Hashable {
        var section: Decision.Section
        var from: ReplayVerdict
        var to: ReplayVerdict
    }

    private struct OutcomeKey: Hashable {
        var transition: TransitionKey
        var outcome: String
    }

    private struct RuleKey: Hashable {
        var bundle: String
        var section: Decision.Section
        var kind: String
        var id: String
    }

    private struct ErrorKey: Hashable {
        var rule: RuleReference
        var message: String
    }

    private var totals: [Decision.Section: ReplayReport.Totals] = [:]
    private var transitions: [TransitionKey: (count: Int, examples: [ReplayReport.Example])] = [:]
    private var outcomes: [OutcomeKey: Int] = [:]
    private var rules: [RuleKey: ReplayReport.RuleCount] = [:]
    private var ruleOrder: [RuleKey] = []
    private var days: [String: (baseline: Int, candidate: Int)] = [:]
    private var errors: [ErrorKey: Int] = [:]
    private var errorOrder: [ErrorKey] = []

    /// Starts with every rule and veto of the bundles at zero, in their order; for a recorded
    /// baseline, `baseline` is the reference bundle (the rules most recorded decisions came from).
    init(candidate: RuleBundle, baseline: RuleBundle?) {
        if let baseline { list(baseline, as: "baseline") }
        list(candidate, as: "candidate")
    }

    /// Whether a case going `from` → `to` should be kept as an example.
    func wantsExample(section: Decision.Section, from: ReplayVerdict, to: ReplayVerdict) -> Bool {
        (transitions[TransitionKey(section: section, from: from, to: to)]?.examples.count ?? 0) < RuleReplay.examplesPerTransition
    }

    mutating func add(_ replayCase: ReplayCase, baseline: Decision, candidate: Decision,
                      from: ReplayVerdict, to: ReplayVerdict, example: ReplayReport.Example?) {
        let section = replayCase.section
        var sectionTotals = totals[section, default: .init()]
        sectionTotals.replayed += 1
        if from == to { sectionTotals.unchanged += 1 } else { sectionTotals.changed += 1 }
        if !candidate.errors.isEmpty { sectionTotals.errors += 1 }
        totals[section] = sectionTotals

        let key = TransitionKey(section: section, from: from, to: to)
        var cell = transitions[key, default: (0, [])]
        cell.count += 1
        if let example { cell.examples.append(example) }
        transitions[key] = cell
        if let outcome = replayCase.outcome { outcomes[OutcomeKey(transition: key, outcome: outcome), default: 0] += 1 }

        count(baseline, as: "baseline", section: section)
        count(candidate, as: "candidate", section: section)
        if section == .offers {
            let day = String(RuleTime.renderTimestamp(replayCase.decidedAt).prefix(10))
            var entry = days[day, default: (0, 0)]
            if baseline.offer != nil { entry.baseline += 1 }
            if candidate.offer != nil { entry.candidate += 1 }
            days[day] = entry
        }
        for error in candidate.errors {
            let key = ErrorKey(rule: error.rule, message: error.message)
            if errors[key] == nil { errorOrder.append(key) }
            errors[key, default: 0] += 1
        }
    }

    func report(candidate: ReplayReport.BundleInfo, baseline: ReplayReport.BundleInfo, diff: [BundleChange],
                sections: [Decision.Section], since: String?, until: String?, sample: Int?) -> ReplayReport {
        var overall = ReplayReport.Totals()
        for value in totals.values {
            overall.replayed += value.replayed
            overall.changed += value.changed
            overall.unchanged += value.unchanged
            overall.errors += value.errors
        }
        let transitionList = transitions.sorted { lhs, rhs in
            (lhs.key.section.rawValue, lhs.key.from == lhs.key.to ? 1 : 0, -lhs.value.count, lhs.key.from, lhs.key.to)
                < (rhs.key.section.rawValue, rhs.key.from == rhs.key.to ? 1 : 0, -rhs.value.count, rhs.key.from, rhs.key.to)
        }.map { key, value in
            ReplayReport.Transition(
                section: key.section, from: key.from.value, fromReason: key.from.reason, to: key.to.value,
                toReason: key.to.reason, changed: key.from != key.to, count: value.count, examples: value.examples)
        }
        let outcomeList = outcomes.sorted { lhs, rhs in
            (lhs.key.transition.section.rawValue, lhs.key.transition.from, lhs.key.transition.to, lhs.key.outcome)
                < (rhs.key.transition.section.rawValue, rhs.key.transition.from, rhs.key.transition.to, rhs.key.outcome)
        }.map { key, count in
            ReplayReport.OutcomeCount(
                section: key.transition.section, from: key.transition.from.value, fromReason: key.transition.from.reason,
                to: key.transition.to.value, toReason: key.transition.to.reason,
                changed: key.transition.from != key.transition.to, outcome: key.outcome, count: count)
        }
        return ReplayReport(
            candidate: candidate, baseline: baseline, since: since, until: until, sections: sections, sample: sample,
            diff: diff, totals: overall,
            sectionTotals: sections.map { ReplayReport.SectionTotals(section: $0, totals: totals[$0] ?? .init()) },
            rules: ruleOrder.compactMap { rules[$0] }.filter { sections.contains($0.section) },
            transitions: transitionList, outcomes: outcomeList,
            offersByDay: days.sorted { $0.key < $1.key }.map {
                ReplayReport.DayCount(day: $0.key, baseline: $0.value.baseline, candidate: $0.value.candidate)
            },
            errors: errorOrder.map { key in
                ReplayReport.ErrorCount(rule: key.rule.id, file: key.rule.file, line: key.rule.line, message: key.message,
                                        count: errors[key] ?? 0)
            })
    }

    // MARK: - Rule counts

    private mutating func list(_ bundle: RuleBundle, as role: String) {
        func add(_ section: Decision.Section, _ kind: String, _ reference: RuleReference) {
            entry(RuleKey(bundle: role, section: section, kind: kind, id: reference.id), reference) { _ in }
        }
        for veto in bundle.offers?.vetoes ?? [] { add(.offers, "veto", RuleReference(id: veto.id, file: veto.location.file, line: veto.location.line)) }
        for rule in bundle.offers?.rules ?? [] { add(.offers, "rule", rule.reference) }
        for veto in bundle.refunds?.vetoes ?? [] { add(.refunds, "veto", RuleReference(id: veto.id, file: veto.location.file, line: veto.location.line)) }
        for rule in bundle.refunds?.rules ?? [] { add(.refunds, "rule", rule.reference) }
        for veto in bundle.retention?.vetoes ?? [] {
            add(.retention, "veto", RuleReference(id: veto.id, file: veto.location.file, line: veto.location.line))
        }
        for rule in bundle.retention?.rules ?? [] { add(.retention, "rule", rule.reference) }
    }

    private mutating func count(_ decision: Decision, as role: String, section: Decision.Section) {
        guard decision.section == section else { return }
        if let veto = decision.blockedBy {
            entry(RuleKey(bundle: role, section: section, kind: "veto", id: veto.id), veto) { $0.matches += 1 }
        }
        if let rule = decision.rule {
            entry(RuleKey(bundle: role, section: section, kind: "rule", id: rule.id), rule) {
                $0.matches += 1
                $0.offers += 1
            }
        }
        if decision.heldOut, let rule = decision.counterfactualRule {
            entry(RuleKey(bundle: role, section: section, kind: "rule", id: rule.id), rule) {
                $0.matches += 1
                $0.heldOut += 1
            }
        }
        for limit in decision.limits where limit.exceeded {
            entry(RuleKey(bundle: role, section: section, kind: "rule", id: limit.rule), nil) {
                $0.matches += 1
                $0.capped += 1
            }
        }
        for shadow in decision.shadowMatches {
            entry(RuleKey(bundle: role, section: section, kind: "rule", id: shadow.rule.id), shadow.rule) {
                $0.matches += 1
                $0.shadow += 1
            }
        }
    }

    private mutating func entry(_ key: RuleKey, _ reference: RuleReference?, _ update: (inout ReplayReport.RuleCount) -> Void) {
        var value = rules[key] ?? {
            ruleOrder.append(key)
            return ReplayReport.RuleCount(
                bundle: key.bundle, section: key.section, rule: key.id, kind: key.kind,
                file: reference?.file ?? "", line: reference?.line ?? 0)
        }()
        update(&value)
        rules[key] = value
    }
}
