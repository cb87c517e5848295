/// An expression checked and compiled once, when the rules load, into closures whose record
/// fields are resolved to slots and whose enum values are ordinals. Evaluating it does no name
/// lookups; explaining it runs a second, tracing compilation of the same tree.
public struct CompiledExpression: Sendable {
    /// The expression text.
    public let source: String
    /// Its static type (`bool` for conditions).
    public let type: RuleType
    /// Optional facts this expression proves present when it is true (from `has()` in its
    /// top-level `&&` chain); pass them to the next conditions of the same rule.
    public let guaranteedFacts: Set<String>
    /// `segment.<name>` references, for the unused-segment lint.
    public let referencedSegments: Set<String>
    /// `constants.<name>` references, for the unused-constant lint.
    public let referencedConstants: Set<String>
    /// Whether evaluation reads facts or `now` (false: the value is ``constantValue``).
    public let readsFacts: Bool
    /// The value when the expression is a constant.
    public let constantValue: RuleValue?

    let fast: Evaluator
    let traced: Evaluator
    let operands: [(text: String, range: SourceRange, type: RuleType)]

    init(source: String, root: TypedExpression, guaranteedFacts: Set<String>, referencedSegments: Set<String>,
         referencedConstants: Set<String>) {
        self.source = source
        self.type = root.type
        self.guaranteedFacts = guaranteedFacts
        self.referencedSegments = referencedSegments
        self.referencedConstants = referencedConstants
        self.readsFacts = root.readsFacts
        self.constantValue = root.constantValue
        self.fast = Emitter(tracing: [:]).emit(root)
        let operandNodes = OperandSelection.operands(of: root)
        var slots: [ObjectIdentifier: Int] = [:]
        for (offset, node) in operandNodes.enumerated() { slots[ObjectIdentifier(node)] = offset }
        self.traced = Emitter(tracing: slots).emit(root)
        self.operands = operandNodes.map { (text: $0.range.text(in: source), range: $0.range, type: $0.type) }
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
