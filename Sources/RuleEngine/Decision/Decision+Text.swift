extension Decision {
    /// The decision as a product manager reads it: the result and the rule that gave it, the
    /// corrections made to it for Apple, holdout and buckets, vetoes, limits, shadow matches,
    /// errors, then the trace condition by condition (✓ true, ✗ false, ! error) with operand values.
    public func renderText() -> String {
        var lines: [String] = []
        lines.append("bundle \(bundle) · now \(now?.description ?? "unknown") · section \(section?.rawValue ?? "none")")
        lines.append("result: " + resultText)
        for correction in corrections {
            lines.append("corrected for Apple: " + Self.correctionText(
                field: correction.field, from: correction.from, to: correction.to, reason: correction.reason)
                + " (rule \(correction.rule.id))")
        }
        if let blockedBy {
            lines.append(AssignedMemberVeto.isVeto(blockedBy) ? AssignedMemberVeto.explanation
                : "blocked by veto \(blockedBy.id) (\(blockedBy.file):\(blockedBy.line))")
        }
        for bucket in buckets {
            if bucket.purpose == "holdout" {
                let verdict = heldOut ? "held out (bucket \(bucket.bucket) < \(bucket.threshold))"
                    : "not held out (bucket \(bucket.bucket) ≥ \(bucket.threshold))"
                lines.append("holdout: \(verdict), unit \(bucket.unit), salt \(bucket.salt)")
            } else {
                lines.append("\(bucket.purpose): bucket \(bucket.bucket) → variant \(bucket.threshold + 1), unit \(bucket.unit), salt \(bucket.salt)")
            }
        }
        if heldOut {
            if section == .retention {
                let would = counterfactualAnswer.map { "\($0) by rule \(counterfactualRule?.id ?? "?")" } ?? "nothing"
                lines.append("counterfactual: would have answered \(would)")
            } else {
                let would = counterfactual.map { "\($0) by rule \(counterfactualRule?.id ?? "?")" } ?? "no offer"
                lines.append("counterfactual: would have offered \(would)")
            }
        }
        for limit in limits {
            let name = limit.offer.map { "\(limit.kind) \($0)" } ?? limit.kind
            lines.append("limit \(name): \(limit.used)/\(limit.max) within \(limit.within) \(limit.exceeded ? "— reached" : "— ok") (rule \(limit.rule))")
        }
        for match in shadowMatches {
            var what = "nothing"
            if let answer = match.answer {
                what = "answer \(answer)"
            } else if let offer = match.offer {
                what = "offer \(offer)"
            } else if let refund = match.refund {
                what = Self.refundText(refund)
            }
            lines.append("shadow: rule \(match.rule.id) (line \(match.rule.line)) would give \(what)")
            for correction in match.corrections {
                lines.append("  corrected for Apple: " + Self.correctionText(
                    field: correction.field, from: correction.from, to: correction.to, reason: correction.reason))
            }
        }
        for error in errors { lines.append("could not evaluate \(error.rule.id): \(error.message)") }
        if !trace.isEmpty { lines.append("trace:") }
        for entry in trace {
            let name = entry.rule.map { "\(entry.kind.rawValue) \($0.id) (line \($0.line))" } ?? entry.kind.rawValue
            let note: String = entry.note.map { " — \($0)" } ?? ""
            lines.append("  \(name): \(Self.outcomeText(entry.outcome))\(note)")
            for condition in entry.conditions {
                let mark: String
                switch condition.value {
                case "true": mark = "✓"
                case "false": mark = "✗"
                default: mark = "!"
                }
                lines.append("    \(mark) line \(condition.line): \(condition.expression)  →  \(condition.value)")
                let operands = condition.operands.filter { $0.text != condition.expression }
                if !operands.isEmpty {
                    lines.append("        " + operands.map { "\($0.text) = \($0.value)" }.joined(separator: "; "))
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    private var resultText: String {
        switch section {
        case nil: return "no section applies"
        case .offers:
            let by = rule.map { " by rule \($0.id) (\($0.file):\($0.line))" } ?? ""
            if let offer { return "offer \(offer)\(by)" }
            if heldOut { return "no offer (held out)" }
            return "no offer"
        case .retention:
            let by = rule.map { " by rule \($0.id) (\($0.file):\($0.line))" } ?? ""
            if let answer { return "answer \(answer)\(by)" }
            if heldOut { return "no answer (held out): the App Store falls back" }
            return "no answer: the App Store falls back"
        case .refunds:
            let by = rule.map { " by rule \($0.id) (\($0.file):\($0.line))" } ?? (blockedBy == nil ? " (default)" : " (default, blocked)")
            return (refund.map(Self.refundText) ?? "no refund preference") + by
        }
    }

    private static func refundText(_ response: RefundResponse) -> String {
        var parts = ["refundPreference \(response.refundPreference ?? "none")"]
        if let percentage = response.consumptionPercentage {
            parts.append("consumptionPercentage \(percentage) (\(percentage / 1000)%)")
        }
        if let delivery = response.deliveryStatus { parts.append("deliveryStatus \(delivery)") }
        if let sample = response.sampleContentProvided { parts.append("sampleContentProvided \(sample)") }
        return parts.joined(separator: ", ")
    }

    /// `consumptionPercentage 30000 → 0 — reason`.
    private static func correctionText(field: String, from: String?, to: String?, reason: String) -> String {
        "\(field) \(from ?? "omitted") → \(to ?? "omitted") — \(reason)"
    }

    private static func outcomeText(_ outcome: DecisionTraceEntry.Outcome) -> String {
        switch outcome {
        case .passed: "passed"
        case .notMatched: "did not match"
        case .blocked: "blocked"
        case .error: "could not be evaluated"
        case .shadowMatched: "matched in shadow mode (not acted on)"
        case .off: "off"
        case .inactive: "not active"
        case .limitExceeded: "over a limit"
        case .noEligibleOffer: "no eligible offer"
        case .invalidResponse: "response broke Apple's consumption rules"
        }
    }
}
