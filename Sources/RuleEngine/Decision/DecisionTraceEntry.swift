/// One step of a decision's trace: the section's `appliesTo`, a veto, or a rule, with how it
/// came out and the conditions that explain it — every condition of a rule that matched, and for
/// one that did not, its first false or erroring condition.
public struct DecisionTraceEntry: Sendable, Hashable, Codable {
    /// What the step was.
    public enum Kind: String, Sendable, Hashable, Codable {
        case appliesTo, veto, rule
    }

    /// How a step came out.
    public enum Outcome: String, Sendable, Hashable, Codable {
        /// appliesTo true, veto false, or rule decided.
        case passed
        /// appliesTo false, or a rule's condition false.
        case notMatched
        /// A veto true (or erroring): the section is blocked.
        case blocked
        /// A condition, or the matched rule's `respond:`, could not be evaluated.
        case error
        /// A shadow rule matched (recorded, evaluation went on).
        case shadowMatched
        /// `mode: off`.
        case off
        /// `now` outside `active`.
        case inactive
        /// The candidate offer is over a limit.
        case limitExceeded
        /// Win-back: none of the customer's eligible offers is one the rule allows; or the offer
        /// is not for the customer's product.
        case noEligibleOffer
        /// The rule matched but its response broke Apple's consumption rules for these facts. No
        /// longer produced (such answers are corrected, see ``Decision/corrections``); kept so
        /// older decision records still decode.
        case invalidResponse
    }

    public let kind: Kind
    /// The rule or veto (nil for appliesTo).
    public let rule: RuleReference?
    public let outcome: Outcome
    /// A note such as the limit that was exceeded or the window.
    public let note: String?
    /// The conditions that explain the outcome.
    public var conditions: [ConditionRecord]
}

/// One evaluated condition as the explanation shows it.
public struct ConditionRecord: Sendable, Hashable, Codable {
    /// One operand of the condition and its value.
    public struct Operand: Sendable, Hashable, Codable {
        public let text: String
        public let value: String
    }

    /// Where the condition is written.
    public let file: String
    public let line: Int
    public let column: Int
    /// The condition's text.
    public let expression: String
    /// `true`, `false`, or `error: …`.
    public let value: String
    /// The operand values.
    public let operands: [Operand]

    init(_ condition: CompiledCondition, trace: ConditionTrace) {
        file = condition.location.file
        line = condition.location.line
        column = condition.location.column
        expression = condition.source
        value = trace.value
        operands = trace.operands.map { Operand(text: $0.text, value: $0.value) }
    }
}
