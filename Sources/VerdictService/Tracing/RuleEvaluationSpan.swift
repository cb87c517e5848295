import RuleEngine
import Tracing

/// The span of one rule evaluation: the bundle's hash, the section, the rule that decided and its
/// result as attributes — never the facts it read (they hold the customer's appAccountToken).
enum RuleEvaluationSpan {
    /// Runs `evaluate` (a bundle's `decide…`) inside a span about its decision.
    static func evaluate(_ section: Decision.Section, bundle: RuleBundle, app: String, _ evaluate: () -> Decision) -> Decision {
        withSpan("evaluate \(section.rawValue) rules") { span in
            let decision = evaluate()
            guard span.isRecording else { return decision }
            span.attributes["verdict.app"] = app
            span.attributes["verdict.rules.bundle_hash"] = bundle.hash
            span.attributes["verdict.rules.section"] = section.rawValue
            span.attributes["verdict.rules.rule_id"] = decision.rule?.id ?? "none"
            span.attributes["verdict.rules.result"] = result(of: decision)
            span.attributes["verdict.rules.held_out"] = decision.heldOut
            if let blockedBy = decision.blockedBy { span.attributes["verdict.rules.blocked_by"] = blockedBy.id }
            return decision
        }
    }

    /// What the decision chose: the offer id, the refund preference, or `none`.
    private static func result(of decision: Decision) -> String {
        if let offer = decision.offer { return "offer \(offer.id)" }
        if let preference = decision.refund?.refundPreference { return "refund \(preference)" }
        if decision.answer != nil { return "answer" }
        return "none"
    }
}
