extension ReplayReport {
    /// The terminal summary: the bundles, the diff, totals, the changed transitions with one
    /// example each, outcomes of changed decisions, per-rule counts that differ, and errors.
    public func renderText() -> String {
        var lines: [String] = []
        let baselineText = baseline.kind == "recorded" ? "what was decided (recorded)"
            : "\(baseline.source ?? "bundle") \(baseline.hash ?? "")"
        lines.append("candidate \(candidate.source ?? "bundle") \(candidate.hash ?? "") vs baseline \(baselineText)")
        lines.append("period \(since ?? "start") to \(until ?? "now") · sections \(sections.map(\.rawValue).joined(separator: ", "))"
            + (sample.map { " · sample of \($0) per section" } ?? ""))
        lines.append("")
        lines.append(diff.isEmpty ? "rule changes: none that can change a decision" : "rule changes (\(diff.count)):")
        lines += diff.map { "  \($0)" }
        lines.append("")
        lines.append("replayed \(totals.replayed) · changed \(totals.changed) · unchanged \(totals.unchanged) · errors \(totals.errors)")
        for entry in sectionTotals {
            lines.append("  \(entry.section.rawValue): replayed \(entry.totals.replayed), changed \(entry.totals.changed), errors \(entry.totals.errors)")
        }
        let changed = transitions.filter(\.changed)
        if !changed.isEmpty {
            lines.append("")
            lines.append("changes (baseline → candidate):")
            for transition in changed {
                lines.append("  \(transition.section.rawValue): \(Self.verdictText(transition.from, transition.fromReason)) → "
                    + "\(Self.verdictText(transition.to, transition.toReason)): \(transition.count)"
                    + (transition.examples.first.map { " (e.g. \($0.originalTransactionId))" } ?? ""))
            }
        }
        let changedOutcomes = outcomes.filter(\.changed)
        if !changedOutcomes.isEmpty {
            lines.append("")
            lines.append("changed decisions by what happened afterwards:")
            for outcome in changedOutcomes {
                lines.append("  \(outcome.section.rawValue): \(Self.verdictText(outcome.from, outcome.fromReason)) → "
                    + "\(Self.verdictText(outcome.to, outcome.toReason)), then \(outcome.outcome): \(outcome.count)")
            }
        }
        let ruleLines = ruleDifferences()
        if !ruleLines.isEmpty {
            lines.append("")
            lines.append("rules whose counts differ (baseline → candidate: matches, offers, held out, capped, shadow):")
            lines += ruleLines
        }
        if !errors.isEmpty {
            lines.append("")
            lines.append("the candidate could not evaluate:")
            for error in errors {
                let position = error.line > 0 ? " (\(error.file):\(error.line))" : ""
                lines.append("  \(error.rule)\(position): \(error.message) — \(error.count)×")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `offer-id`, `DECLINE`, `none (vetoed)`.
    public static func verdictText(_ value: String, _ reason: ReplayVerdict.Reason?) -> String {
        reason.map { "\(value) (\($0.rawValue))" } ?? value
    }

    private func ruleDifferences() -> [String] {
        func key(_ count: RuleCount) -> String { "\(count.section.rawValue) \(count.kind) \(count.rule)" }
        func numbers(_ count: RuleCount?) -> String {
            guard let count else { return "absent" }
            return "\(count.matches)/\(count.offers)/\(count.heldOut)/\(count.capped)/\(count.shadow)"
        }
        let before = Dictionary(rules.filter { $0.bundle == "baseline" }.map { (key($0), $0) }, uniquingKeysWith: { $1 })
        let after = Dictionary(rules.filter { $0.bundle == "candidate" }.map { (key($0), $0) }, uniquingKeysWith: { $1 })
        var seen: Set<String> = []
        var lines: [String] = []
        for count in rules where seen.insert(key(count)).inserted {
            let old = numbers(before[key(count)])
            let new = numbers(after[key(count)])
            if old != new { lines.append("  \(key(count)): \(old) → \(new)") }
        }
        return lines
    }
}
