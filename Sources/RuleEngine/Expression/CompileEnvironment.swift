/// A named constant of the rule file, already folded to a value (`constants.<name>`).
public struct RuleConstant: Sendable, Hashable {
    public let type: RuleType
    public let value: RuleValue
    public init(type: RuleType, value: RuleValue) {
        self.type = type
        self.value = value
    }
}

/// What an expression may refer to when it is compiled.
///
/// Holds the fact schema (with the rule file's declared customer attributes), the folded
/// `constants.<name>`, the compiled `segment.<name>` conditions, and the optional facts already
/// proven present by earlier conditions of the same rule (a rule's `when:` list is an `&&` chain,
/// so `has(usage.consumptionPercentage)` in one entry guards the next entries; pass
/// ``CompiledExpression/guaranteedFacts`` of the earlier entries here).
public struct CompileEnvironment: Sendable {
    public var schema: FactSchema
    public var constants: [String: RuleConstant]
    public var segments: [String: CompiledExpression]
    /// Optional fact paths known present (`usage.consumptionPercentage`).
    public var guardedFacts: Set<String>
    /// False while folding constants: facts, `now` and segments are then unavailable.
    public var allowsFacts: Bool
    /// Constants and segments whose declarations failed to check: a reference to one fails
    /// without a second error (the declaration's error already explains it).
    public var failedConstants: Set<String> = []
    public var failedSegments: Set<String> = []

    public init(schema: FactSchema = .standard, constants: [String: RuleConstant] = [:],
                segments: [String: CompiledExpression] = [:], guardedFacts: Set<String> = [], allowsFacts: Bool = true) {
        self.schema = schema
        self.constants = constants
        self.segments = segments
        self.guardedFacts = guardedFacts
        self.allowsFacts = allowsFacts
    }

    /// An environment for folding `constants:` entries: no facts, no `now`, no segments; earlier
    /// constants may be used.
    public static func forConstants(schema: FactSchema = .standard, constants: [String: RuleConstant] = [:]) -> Self {
        Self(schema: schema, constants: constants, allowsFacts: false)
    }
}

/// The inputs of one evaluation: the typed facts and `now` (the event's `signedDate` unless a
/// test or replay sets it). Cheap: build it once per decision and reuse it for every condition.
public struct EvaluationContext: Sendable {
    public let facts: Facts
    /// Milliseconds since the epoch; nil when unknown (reading `now` is then an evaluation error).
    public let now: Int64?

    /// `now` defaults to the facts' `event.signedDate`.
    public init(facts: Facts, now: Int64? = nil) {
        self.facts = facts
        self.now = now ?? facts.signedDate
    }

    /// A context without facts, for evaluating constants.
    public static let empty = EvaluationContext(facts: .empty, now: nil)
}

extension Facts {
    /// An empty document (every fact missing, every list empty) of the standard schema.
    public static let empty: Facts = {
        do { return try Facts(.object([:])) } catch { preconditionFailure("an empty facts document always decodes") }
    }()
}
