/// The mutable state of one evaluation: the facts' flat cells, `now`, the two macro-variable
/// slots (macro nesting is at most 2, so no array is needed) — a value, or a table and a row
/// index when the macro walks records — and, for explanations only, a recorder of operand
/// values. Lives on the stack; the fast path allocates nothing.
struct Frame {
    let cells: [RuleValue]
    let now: Int64?
    var local0: RuleValue = .absent
    var local1: RuleValue = .absent
    var table0: RecordTable?
    var table1: RecordTable?
    var row0 = 0
    var row1 = 0
    let recorder: OperandRecorder?

    init(cells: [RuleValue], now: Int64?, recorder: OperandRecorder? = nil) {
        self.cells = cells
        self.now = now
        self.recorder = recorder
    }
}

/// Collects operand outcomes during a tracing evaluation (explanations only).
final class OperandRecorder {
    var results: [RuleResult?]
    init(count: Int) { results = Array(repeating: nil, count: count) }
}

/// A compiled expression node: evaluates against a frame or throws why it cannot.
typealias Evaluator = @Sendable (inout Frame) throws(EvaluationError) -> RuleValue
