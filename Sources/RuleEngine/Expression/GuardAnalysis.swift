/// Which optional facts a condition proves present, from `has(…)` calls.
///
/// `whenTrue(e)`: paths present whenever `e` is true (`has(p)`, either side of `&&`, `!` of a
/// `whenFalse`). `whenFalse(e)`: paths present whenever `e` is false (`!has(p)`, either side of
/// `||`). With CEL's commutative `&&`/`||`, a guard protects its sibling wherever it stands:
/// `usage.x > 5 && has(usage.x)` is false, not an error, when `usage.x` is missing.
enum GuardAnalysis {
    static func whenTrue(_ syntax: Syntax) -> Set<String> {
        switch syntax.kind {
        case .call(name: "has", _, target: nil, let arguments) where arguments.count == 1:
            return arguments[0].dottedPath.map { [$0] } ?? []
        case .binary(.and, let left, let right):
            return whenTrue(left).union(whenTrue(right))
        case .unary(.not, let operand):
            return whenFalse(operand)
        default:
            return []
        }
    }

    static func whenFalse(_ syntax: Syntax) -> Set<String> {
        switch syntax.kind {
        case .binary(.or, let left, let right):
            return whenFalse(left).union(whenFalse(right))
        case .unary(.not, let operand):
            return whenTrue(operand)
        default:
            return []
        }
    }
}

/// Chooses the sub-expressions an explanation shows values for: each non-constant side of a
/// comparison, `in` or arithmetic, and each non-constant boolean leaf under `&&`, `||`, `!`.
/// Macro bodies are not entered (their variables change per element).
enum OperandSelection {
    static func operands(of root: TypedExpression) -> [TypedExpression] {
        var result: [TypedExpression] = []
        var seen: Set<String> = []
        func add(_ node: TypedExpression) {
            guard node.constantValue == nil else { return }
            let key = "\(node.range.start):\(node.range.end)"
            if seen.insert(key).inserted { result.append(node) }
        }
        func visit(_ node: TypedExpression, isRoot: Bool) {
            switch node.kind {
            case .and(let a, let b), .or(let a, let b):
                visit(a, isRoot: false)
                visit(b, isRoot: false)
            case .not(let a):
                visit(a, isRoot: false)
            case .compare(_, let a, let b), .inList(let a, let b), .inMap(let a, let b), .arithmetic(_, let a, let b):
                add(a)
                add(b)
            case .inSet(let a, _):
                add(a)
            case .constant:
                break
            default:
                if !isRoot { add(node) }
            }
        }
        visit(root, isRoot: true)
        return result.sorted { $0.range.start < $1.range.start }
    }
}
