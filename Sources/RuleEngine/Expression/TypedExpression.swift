/// A checked expression node: its static type, its range, and what to compute. Produced by the
/// ``Checker``, turned into closures by the ``Emitter``. Field names are already slots here.
final class TypedExpression: Sendable {
    enum Comparison: String, Sendable {
        case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    }

    enum Arithmetic: String, Sendable { case add = "+", subtract = "-", multiply = "*" }

    enum Macro: String, Sendable { case exists, all, existsOne = "exists_one", filter, map }

    enum Builtin: String, Sendable {
        case size, sum, min, max, days, hours, since, startsWith, endsWith, contains
    }

    /// Where a record's flat cells live: the facts document, or the current row of the table a
    /// macro walks (slot = nesting depth; `width` = cells per row).
    enum RecordBase: Hashable, Sendable {
        case document
        case row(slot: Int, width: Int)
    }

    indirect enum Kind: Sendable {
        /// A literal or a folded constant.
        case constant(RuleValue)
        /// A record (`subscription`, `customer.attributes`, a macro's row `t`) whose cells start at
        /// `offset`; only field reads use it, except where a record is the whole result.
        case record(RuleRecord, RecordBase, offset: Int)
        /// Reads the cell at `offset`; `path` names the fact in "… is missing" errors.
        case cell(RecordBase, offset: Int, path: String)
        case now
        /// A macro variable that is not a record; the slot is the macro's nesting depth (0 or 1).
        case local(Int)
        /// `has(x.field)`: whether the cell at `offset` is present.
        case has(RecordBase, offset: Int)
        /// `map[key]`; `mapText` names the table in "has no entry" errors.
        case index(TypedExpression, TypedExpression, mapText: String)
        case not(TypedExpression)
        case negate(TypedExpression)
        case and(TypedExpression, TypedExpression)
        case or(TypedExpression, TypedExpression)
        case compare(Comparison, TypedExpression, TypedExpression)
        /// `element in list` (list computed at run time).
        case inList(TypedExpression, TypedExpression)
        /// `element in [constant list]`, as a set.
        case inSet(TypedExpression, Set<RuleValue>)
        /// `key in map`.
        case inMap(TypedExpression, TypedExpression)
        case arithmetic(Arithmetic, TypedExpression, TypedExpression)
        case list([TypedExpression])
        case macro(Macro, TypedExpression, slot: Int, body: TypedExpression)
        case builtin(Builtin, [TypedExpression])
        /// `segment.<name>`: a named condition compiled earlier.
        case segment(String, CompiledExpression)
    }

    let kind: Kind
    let type: RuleType
    let range: SourceRange

    init(_ kind: Kind, _ type: RuleType, _ range: SourceRange) {
        self.kind = kind
        self.type = type
        self.range = range
    }

    /// The folded value, when the node is a constant.
    var constantValue: RuleValue? {
        if case .constant(let value) = kind { return value }
        return nil
    }

    /// The direct children, in evaluation order.
    var children: [TypedExpression] {
        switch kind {
        case .constant, .record, .cell, .has, .now, .local, .segment: []
        case .not(let base), .negate(let base), .inSet(let base, _): [base]
        case .index(let a, let b, _), .and(let a, let b), .or(let a, let b), .compare(_, let a, let b),
             .inList(let a, let b), .inMap(let a, let b), .arithmetic(_, let a, let b): [a, b]
        case .list(let items), .builtin(_, let items): items
        case .macro(_, let target, _, let body): [target, body]
        }
    }

    /// Whether the node reads facts or `now` (directly or through a segment).
    var readsFacts: Bool {
        switch kind {
        case .record(_, .document, _), .cell(.document, _, _), .has(.document, _), .now, .segment, .builtin(.since, _): true
        default: children.contains { $0.readsFacts }
        }
    }
}
