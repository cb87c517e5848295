/// Operator typing: `! -`, `&& ||` (with `has()` guards flowing between the sides),
/// `== != < <= > >=`, `in`, `+ - *`.
extension Checker {
    mutating func checkUnary(_ syntax: Syntax, _ op: Syntax.UnaryOperator, _ operand: Syntax) -> TypedExpression? {
        guard let typed = check(operand) else { return nil }
        switch op {
        case .not:
            guard typed.type == .bool else {
                report("'!' needs true or false, not \(typed.type)", operand.range)
                return nil
            }
            return fold(TypedExpression(.not(typed), .bool, syntax.range))
        case .negate:
            guard [.int, .duration, .money].contains(typed.type) else {
                report("'-' cannot negate \(typed.type)", operand.range)
                return nil
            }
            return fold(TypedExpression(.negate(typed), typed.type, syntax.range))
        }
    }

    mutating func checkBinary(_ syntax: Syntax, _ op: Syntax.BinaryOperator, _ left: Syntax, _ right: Syntax) -> TypedExpression? {
        switch op {
        case .and, .or: return checkLogical(syntax, op, left, right)
        case .in: return checkIn(syntax, left, right)
        case .add, .subtract, .multiply: return checkArithmetic(syntax, op, left, right)
        case .equal, .notEqual, .less, .lessEqual, .greater, .greaterEqual: return checkComparison(syntax, op, left, right)
        }
    }

    private mutating func checkLogical(_ syntax: Syntax, _ op: Syntax.BinaryOperator, _ left: Syntax, _ right: Syntax) -> TypedExpression? {
        let saved = guards
        guards = saved.union(op == .and ? GuardAnalysis.whenTrue(right) : GuardAnalysis.whenFalse(right))
        let typedLeft = check(left)
        guards = saved.union(op == .and ? GuardAnalysis.whenTrue(left) : GuardAnalysis.whenFalse(left))
        let typedRight = check(right)
        guards = saved
        guard let typedLeft, let typedRight else { return nil }
        for side in [typedLeft, typedRight] where side.type != .bool {
            report("'\(op.rawValue)' needs true or false on both sides, not \(side.type)", side.range)
            return nil
        }
        // Constant sides simplify but never hide an error: fold only when both are constant.
        let kind: TypedExpression.Kind = op == .and ? .and(typedLeft, typedRight) : .or(typedLeft, typedRight)
        return fold(TypedExpression(kind, .bool, syntax.range))
    }

    /// Checks both sides, the bare-enum-name side (if any) last so it takes the other side's type.
    private mutating func checkPair(_ left: Syntax, _ right: Syntax) -> (TypedExpression, TypedExpression)? {
        if isBareName(left) && !isBareName(right) {
            let typedRight = check(right)
            let typedLeft = check(left, expected: typedRight?.type)
            guard let typedLeft, let typedRight else { return nil }
            return (typedLeft, typedRight)
        }
        let typedLeft = check(left)
        if typedLeft == nil, isBareName(right) { return nil }  // no type to resolve it with; avoid a cascade
        let typedRight = check(right, expected: typedLeft?.type)
        guard let typedLeft, let typedRight else { return nil }
        return (typedLeft, typedRight)
    }

    private mutating func checkComparison(_ syntax: Syntax, _ op: Syntax.BinaryOperator, _ left: Syntax, _ right: Syntax) -> TypedExpression? {
        guard let (typedLeft, typedRight) = checkPair(left, right) else { return nil }
        let comparison = TypedExpression.Comparison(rawValue: op.rawValue)!
        guard typedLeft.type == typedRight.type else {
            reportMismatch(op.rawValue, typedLeft, typedRight, syntax.range)
            return nil
        }
        switch comparison {
        case .equal, .notEqual:
            if case .record = typedLeft.type {
                report("records cannot be compared with \(op.rawValue); compare their fields", syntax.range)
                return nil
            }
        default:
            guard typedLeft.type.isOrdered else {
                report("\(typedLeft.type) values have no order; '\(op.rawValue)' needs int, string, money, duration or timestamp", syntax.range)
                return nil
            }
        }
        return fold(TypedExpression(.compare(comparison, typedLeft, typedRight), .bool, syntax.range))
    }

    private mutating func reportMismatch(_ op: String, _ left: TypedExpression, _ right: TypedExpression, _ range: SourceRange) {
        if case .enumeration(let ruleEnum) = left.type, right.type == .string, case .string(let text)? = right.constantValue {
            report("compare \(ruleEnum.name) with a value name, not a string", right.range,
                   didYouMean: ruleEnum.ordinal(named: text) != nil ? text : DidYouMean.suggestion(for: text, among: ruleEnum.caseNames))
            return
        }
        report("cannot apply '\(op)' to \(left.type) and \(right.type)", range)
    }

    private mutating func checkIn(_ syntax: Syntax, _ left: Syntax, _ right: Syntax) -> TypedExpression? {
        var typedLeft: TypedExpression?
        var typedRight: TypedExpression?
        if isBareName(left) {
            typedRight = check(right)
            var element: RuleType?
            if case .list(let inner)? = typedRight?.type { element = inner }
            if typedRight == nil { return nil }
            typedLeft = check(left, expected: element)
        } else {
            typedLeft = check(left)
            if typedLeft == nil, case .list = right.kind { return nil }  // its bare names could not be resolved
            typedRight = check(right, expected: typedLeft.map { .list($0.type) })
        }
        guard let typedLeft, let typedRight else { return nil }
        switch typedRight.type {
        case .list(let element):
            if case .record = element {
                report("records cannot be looked up with 'in'; use exists(…) on their fields", syntax.range)
                return nil
            }
            guard element == typedLeft.type else {
                report("cannot look for \(typedLeft.type) in \(typedRight.type)", syntax.range)
                return nil
            }
            if case .list(let items)? = typedRight.constantValue, typedLeft.type != .money {
                return fold(TypedExpression(.inSet(typedLeft, Set(items)), .bool, syntax.range))
            }
            return fold(TypedExpression(.inList(typedLeft, typedRight), .bool, syntax.range))
        case .map:
            guard typedLeft.type == .string else {
                report("table keys are strings, not \(typedLeft.type)", left.range)
                return nil
            }
            return fold(TypedExpression(.inMap(typedLeft, typedRight), .bool, syntax.range))
        default:
            report("'in' needs a list or a table on its right, not \(typedRight.type)", right.range)
            return nil
        }
    }

    private mutating func checkArithmetic(_ syntax: Syntax, _ op: Syntax.BinaryOperator, _ left: Syntax, _ right: Syntax) -> TypedExpression? {
        let typedLeft = check(left)
        let typedRight = check(right)
        guard let typedLeft, let typedRight else { return nil }
        let result: RuleType?
        switch (op, typedLeft.type, typedRight.type) {
        case (.add, .int, .int), (.subtract, .int, .int), (.multiply, .int, .int): result = .int
        case (.add, .money, .money), (.subtract, .money, .money): result = .money
        case (.add, .duration, .duration), (.subtract, .duration, .duration): result = .duration
        case (.add, .timestamp, .duration), (.add, .duration, .timestamp), (.subtract, .timestamp, .duration): result = .timestamp
        case (.subtract, .timestamp, .timestamp): result = .duration
        case (.add, .string, .string): result = .string
        case (.multiply, .duration, .int), (.multiply, .int, .duration): result = .duration
        case (.multiply, .money, .int), (.multiply, .int, .money): result = .money
        default: result = nil
        }
        guard let result else {
            report("cannot apply '\(op.rawValue)' to \(typedLeft.type) and \(typedRight.type)", syntax.range)
            return nil
        }
        let arithmetic = TypedExpression.Arithmetic(rawValue: op.rawValue)!
        return fold(TypedExpression(.arithmetic(arithmetic, typedLeft, typedRight), result, syntax.range))
    }
}
