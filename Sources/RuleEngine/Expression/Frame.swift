/// The mutable state of one evaluation: the facts' flat cells, `now`, the two macro-variable
/// slots (macro nesting is at most 2, so no array is needed) — a value, or a table and a row
/// index when the macro walks records — and, for explanations only, a recorder of operand
/// values. Lives on the stack; the fast path allocates nothing. While a macro walks a table,
/// `base0`/`base1` point at that table's cells (kept alive by `table0`/`table1`), so a row
/// read is a pointer read with no reference counting of the table or its array.
struct Frame {
    let cells: [RuleValue]
    let now: Int64?
    var local0: RuleValue = .absent
    var local1: RuleValue = .absent
    var table0: RecordTable?
    var table1: RecordTable?
    var base0: UnsafePointer<RuleValue>?
    var base1: UnsafePointer<RuleValue>?
    var row0 = 0
    var row1 = 0
    let recorder: OperandRecorder?

    init(cells: [RuleValue], now: Int64?, recorder: OperandRecorder? = nil) {
        self.cells = cells
        self.now = now
        self.recorder = recorder
    }

    /// Binds macro slot 0 or 1 to `table` (rows are then read through its cell pointer).
    @inline(__always)
    mutating func enter(_ slot: Int, _ table: RecordTable) {
        if slot == 0 {
            table0 = table
            base0 = table.base
        } else {
            table1 = table
            base1 = table.base
        }
    }

    /// The cell at `index` of the table slot 0 or 1 walks, borrowed (callers copy only what they keep).
    @inline(__always)
    func rowCell(_ slot: Int, _ index: Int) -> UnsafePointer<RuleValue> {
        (slot == 0 ? base0 : base1).unsafelyUnwrapped + index
    }
}

/// Collects operand outcomes during a tracing evaluation (explanations only).
final class OperandRecorder {
    var results: [RuleResult?]
    init(count: Int) { results = Array(repeating: nil, count: count) }
}

/// A compiled expression node: evaluates against a frame or throws why it cannot.
typealias Evaluator = @Sendable (inout Frame) throws(EvaluationError) -> RuleValue
