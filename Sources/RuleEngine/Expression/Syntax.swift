/// A node of the parsed (untyped) expression tree, with the range of text it covers.
final class Syntax: Sendable {
    enum UnaryOperator: Sendable { case not, negate }

    enum BinaryOperator: String, Sendable {
        case or = "||", and = "&&"
        case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
        case `in` = "in"
        case add = "+", subtract = "-", multiply = "*"
    }

    enum Kind: Sendable {
        case int(Int64)
        case string(String)
        case bool(Bool)
        case identifier(String)
        /// `base.name`
        case select(Syntax, name: String, nameRange: SourceRange)
        /// `base[key]`
        case index(Syntax, Syntax)
        /// `name(args)` or `target.name(args)` (functions, member functions and macros)
        case call(name: String, nameRange: SourceRange, target: Syntax?, arguments: [Syntax])
        case list([Syntax])
        case unary(UnaryOperator, Syntax)
        case binary(BinaryOperator, Syntax, Syntax)
    }

    let kind: Kind
    let range: SourceRange
    /// Levels of nodes from this one down to its deepest leaf (a leaf is 1). The parser keeps it
    /// at most ``Parser/maximumDepth``, so every recursive pass over a tree is bounded.
    let depth: Int

    init(_ kind: Kind, _ range: SourceRange) {
        self.kind = kind
        self.range = range
        let children: [Syntax] = switch kind {
        case .int, .string, .bool, .identifier: []
        case .select(let base, _, _), .unary(_, let base): [base]
        case .index(let base, let key), .binary(_, let base, let key): [base, key]
        case .call(_, _, let target, let arguments): (target.map { [$0] } ?? []) + arguments
        case .list(let elements): elements
        }
        depth = 1 + (children.map(\.depth).max() ?? 0)
    }

    /// `a.b.c` for a select chain on an identifier, else nil (used for fact paths and guards).
    var dottedPath: String? {
        switch kind {
        case .identifier(let name): name
        case .select(let base, let name, _): base.dottedPath.map { $0 + "." + name }
        default: nil
        }
    }
}
