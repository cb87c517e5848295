/// An expression checked and compiled once, when the rules load, into closures whose record
/// fields are resolved to slots and whose enum values are ordinals. Evaluating it does no name
/// lookups; explaining it runs a second, tracing compilation of the same tree.
public struct CompiledExpression: Sendable {
    /// Everything compiled, behind one reference: conditions are copied freely (into rules,
    /// vetoes, trace steps), and a copy then costs one retain instead of one per field.
    private let storage: Storage

    /// The expression text.
    public var source: String { storage.source }
    /// Its static type (`bool` for conditions).
    public var type: RuleType { storage.type }
    /// Optional facts this expression proves present when it is true (from `has()` in its
    /// top-level `&&` chain); pass them to the next conditions of the same rule.
    public var guaranteedFacts: Set<String> { storage.guaranteedFacts }
    /// `segment.<name>` references, for the unused-segment lint.
    public var referencedSegments: Set<String> { storage.referencedSegments }
    /// `constants.<name>` references, for the unused-constant lint.
    public var referencedConstants: Set<String> { storage.referencedConstants }
    /// Dotted paths of the document's facts the expression reads, directly or through segments
    /// (`subscription.commitment` and `subscription.commitment.period` for
    /// `has(subscription.commitment) && subscription.commitment.period < 12`).
    public var referencedFacts: Set<String> { storage.referencedFacts }
    /// Whether evaluation reads facts or `now` (false: the value is ``constantValue``).
    public var readsFacts: Bool { storage.readsFacts }
    /// The value when the expression is a constant.
    public var constantValue: RuleValue? { storage.constantValue }

    var fast: Evaluator { storage.fast }
    var traced: Evaluator { storage.traced }
    var operands: [(text: String, range: SourceRange, type: RuleType)] { storage.operands }

    private final class Storage: Sendable {
        let source: String
        let type: RuleType
        let guaranteedFacts: Set<String>
        let referencedSegments: Set<String>
        let referencedConstants: Set<String>
        let referencedFacts: Set<String>
        let readsFacts: Bool
        let constantValue: RuleValue?
        let fast: Evaluator
        let traced: Evaluator
        let operands: [(text: String, range: SourceRange, type: RuleType)]

        init(source: String, root: TypedExpression, guaranteedFacts: Set<String>, referencedSegments: Set<String>,
             referencedConstants: Set<String>, referencedFacts: Set<String>) {
            self.source = source
            self.type = root.type
            self.guaranteedFacts = guaranteedFacts
            self.referencedSegments = referencedSegments
            self.referencedConstants = referencedConstants
            self.referencedFacts = referencedFacts
            self.readsFacts = root.readsFacts
            self.constantValue = root.constantValue
            self.fast = Emitter(tracing: [:]).emit(root)
            let operandNodes = OperandSelection.operands(of: root)
            var slots: [ObjectIdentifier: Int] = [:]
            for (offset, node) in operandNodes.enumerated() { slots[ObjectIdentifier(node)] = offset }
            self.traced = Emitter(tracing: slots).emit(root)
            self.operands = operandNodes.map { (text: $0.range.text(in: source), range: $0.range, type: $0.type) }
        }
    }

    init(source: String, root: TypedExpression, guaranteedFacts: Set<String>, referencedSegments: Set<String>,
         referencedConstants: Set<String>, referencedFacts: Set<String>) {
        storage = Storage(source: source, root: root, guaranteedFacts: guaranteedFacts,
                          referencedSegments: referencedSegments, referencedConstants: referencedConstants,
                          referencedFacts: referencedFacts)
    }

    /// Whether the expression reads the fact at `path` or a fact inside it (`subscription.commitment`
    /// is read by `subscription.commitment.endsAt > now`), directly or through a segment.
    public func reads(_ path: String) -> Bool {
        storage.referencedFacts.contains { $0 == path || ($0.hasPrefix(path) && $0.dropFirst(path.count).first == ".") }
    }

    /// Evaluates against the context's facts and `now`.
    public func evaluate(_ context: EvaluationContext) -> RuleResult {
        var frame = Frame(cells: context.facts.cells, now: context.now)
        do {
            return .value(try fast(&frame))
        } catch {
            return .error(error)
        }
    }

    /// Evaluates a condition: true, false, or the error (the fast path for rule matching).
    public func isTrue(_ context: EvaluationContext) -> Result<Bool, EvaluationError> {
        var frame = Frame(cells: context.facts.cells, now: context.now)
        do {
            return .success(Operations.truth(try fast(&frame)))
        } catch {
            return .failure(error)
        }
    }

    /// Evaluates with tracing and returns the value with each operand's value.
    public func explain(_ context: EvaluationContext) -> ConditionTrace {
        let recorder = OperandRecorder(count: operands.count)
        var frame = Frame(cells: context.facts.cells, now: context.now, recorder: recorder)
        let result: RuleResult
        do {
            result = .value(try traced(&frame))
        } catch {
            result = .error(error)
        }
        let traced = operands.enumerated().map { offset, operand in
            let outcome = recorder.results[offset]
            return ConditionTrace.Operand(text: operand.text, range: operand.range,
                                          value: Self.render(outcome, as: operand.type), result: outcome)
        }
        return ConditionTrace(source: source, result: result, value: Self.render(result, as: type), operands: traced)
    }

    static func render(_ result: RuleResult?, as type: RuleType) -> String {
        switch result {
        case .value(let value): value.rendered(as: type)
        case .error(let error): "error: " + error.message
        case nil: "not evaluated"
        }
    }
}
