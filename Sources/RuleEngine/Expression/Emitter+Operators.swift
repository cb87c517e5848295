/// Closures for comparisons, `in` and arithmetic, specialised by the operands' static types.
extension Emitter {
    func emitCompare(_ comparison: TypedExpression.Comparison, _ left: TypedExpression, _ right: TypedExpression,
                     _ range: SourceRange) -> Evaluator {
        let first = emit(left)
        let isEqual = comparison == .equal
        switch left.type {
        case .enumeration:
            if case .enumeration(let constant)? = right.constantValue, tracing[ObjectIdentifier(right)] == nil {
                return { frame throws(EvaluationError) in
                    guard case .enumeration(let ordinal) = try first(&frame) else { return .bool(!isEqual) }
                    return .bool((ordinal == constant) == isEqual)
                }
            }
            let second = emit(right)
            return { frame throws(EvaluationError) in .bool((try first(&frame) == second(&frame)) == isEqual) }
        case .int, .duration, .timestamp:
            if let constant = right.constantValue, tracing[ObjectIdentifier(right)] == nil {
                let bound = Operations.integer(constant)
                return { frame throws(EvaluationError) in
                    .bool(Operations.holds(comparison, Operations.integer(try first(&frame)), bound))
                }
            }
            let second = emit(right)
            return { frame throws(EvaluationError) in
                let a = Operations.integer(try first(&frame))
                return .bool(Operations.holds(comparison, a, Operations.integer(try second(&frame))))
            }
        case .string:
            if let fused = emitCellStringCompare(comparison, left, right) { return fused }
            let second = emit(right)
            return { frame throws(EvaluationError) in
                let a = Operations.string(try first(&frame))
                return .bool(Operations.holds(comparison, a, Operations.string(try second(&frame))))
            }
        case .money:
            if case .money(let constant)? = right.constantValue, tracing[ObjectIdentifier(right)] == nil {
                return { frame throws(EvaluationError) in
                    .bool(try Operations.compareMoney(comparison, Operations.money(try first(&frame)), constant, range))
                }
            }
            let second = emit(right)
            return { frame throws(EvaluationError) in
                let a = Operations.money(try first(&frame))
                return .bool(try Operations.compareMoney(comparison, a, Operations.money(try second(&frame)), range))
            }
        default:
            let second = emit(right)
            return { frame throws(EvaluationError) in
                let a = try first(&frame)
                return .bool(try Operations.equal(a, try second(&frame), range) == isEqual)
            }
        }
    }

    /// `field <op> 'text'` for a fact or a row field of a table macro: compares the cell in place,
    /// so neither the cell nor its string is copied or retained (nil when the shape does not fit).
    private func emitCellStringCompare(_ comparison: TypedExpression.Comparison, _ left: TypedExpression,
                                       _ right: TypedExpression) -> Evaluator? {
        guard case .string(let constant)? = right.constantValue, tracing[ObjectIdentifier(right)] == nil,
              tracing[ObjectIdentifier(left)] == nil,
              case .cell(let base, let offset, let path) = left.kind
        else { return nil }
        let missing = EvaluationError("\(path) is missing", at: left.range)
        switch base {
        case .document:
            return { frame throws(EvaluationError) in
                guard let holds = frame.cells.withUnsafeBufferPointer({ Self.compare($0[offset], comparison, constant) })
                else { throw missing }
                return .bool(holds)
            }
        case .row(let slot, let width):
            return { frame throws(EvaluationError) in
                let cell = frame.rowCell(slot, (slot == 0 ? frame.row0 : frame.row1) &* width &+ offset)
                guard let holds = Self.compare(cell.pointee, comparison, constant) else { throw missing }
                return .bool(holds)
            }
        }
    }

    /// `value <op> constant` for a string cell (nil when absent), reading the cell borrowed.
    @inline(__always)
    private static func compare(_ value: borrowing RuleValue, _ comparison: TypedExpression.Comparison,
                                _ constant: String) -> Bool? {
        switch value {
        case .string(let text): Operations.holds(comparison, text, constant)
        case .absent: nil
        default: Operations.holds(comparison, "", constant)
        }
    }

    /// Membership in a constant list, unboxed by element type (enum ordinals, integers, strings).
    func emitInSet(_ element: TypedExpression, _ values: Set<RuleValue>) -> Evaluator {
        let value = emit(element)
        switch element.type {
        case .enumeration:
            let ordinals = values.compactMap { item -> Int32? in
                if case .enumeration(let ordinal) = item { return ordinal }
                return nil
            }
            return { frame throws(EvaluationError) in
                guard case .enumeration(let ordinal) = try value(&frame) else { return .bool(false) }
                return .bool(ordinals.contains(ordinal))
            }
        case .int, .duration, .timestamp:
            let numbers = Set(values.map(Operations.integer))
            return { frame throws(EvaluationError) in .bool(numbers.contains(Operations.integer(try value(&frame)))) }
        case .string:
            let texts = values.map(Operations.string)
            if texts.count > 8 {
                let lookup = Set(texts)
                return { frame throws(EvaluationError) in .bool(lookup.contains(Operations.string(try value(&frame)))) }
            }
            return { frame throws(EvaluationError) in .bool(texts.contains(Operations.string(try value(&frame)))) }
        default:
            return { frame throws(EvaluationError) in .bool(values.contains(try value(&frame))) }
        }
    }

    func emitInList(_ element: TypedExpression, _ list: TypedExpression, _ range: SourceRange) -> Evaluator {
        let value = emit(element)
        let items = emit(list)
        return { frame throws(EvaluationError) in
            let needle = try value(&frame)
            for item in Operations.list(try items(&frame)) where try Operations.equal(needle, item, range) {
                return .bool(true)
            }
            return .bool(false)
        }
    }

    func emitArithmetic(_ op: TypedExpression.Arithmetic, _ left: TypedExpression, _ right: TypedExpression,
                        result: RuleType, _ range: SourceRange) -> Evaluator {
        let first = emit(left)
        let second = emit(right)
        switch (left.type, right.type) {
        case (.money, .money):
            let subtracting = op == .subtract
            return { frame throws(EvaluationError) in
                let a = Operations.money(try first(&frame))
                return .money(try Operations.addMoney(a, Operations.money(try second(&frame)), subtracting: subtracting, range))
            }
        case (.money, .int), (.int, .money):
            let moneyFirst = left.type == .money
            return { frame throws(EvaluationError) in
                let a = try first(&frame)
                let b = try second(&frame)
                let amount = Operations.money(moneyFirst ? a : b)
                let factor = Operations.integer(moneyFirst ? b : a)
                return .money(Money(milliunits: try Operations.multiply(amount.milliunits, factor, range), currencyCode: amount.currencyCode))
            }
        case (.string, .string):
            return { frame throws(EvaluationError) in
                let a = Operations.string(try first(&frame))
                return .string(a + Operations.string(try second(&frame)))
            }
        default:
            let wrap: @Sendable (Int64) -> RuleValue
            switch result {
            case .duration: wrap = { .duration($0) }
            case .timestamp: wrap = { .timestamp($0) }
            default: wrap = { .int($0) }
            }
            switch op {
            case .add:
                return { frame throws(EvaluationError) in
                    let a = Operations.integer(try first(&frame))
                    return wrap(try Operations.add(a, Operations.integer(try second(&frame)), range))
                }
            case .subtract:
                return { frame throws(EvaluationError) in
                    let a = Operations.integer(try first(&frame))
                    return wrap(try Operations.subtract(a, Operations.integer(try second(&frame)), range))
                }
            case .multiply:
                return { frame throws(EvaluationError) in
                    let a = Operations.integer(try first(&frame))
                    return wrap(try Operations.multiply(a, Operations.integer(try second(&frame)), range))
                }
            }
        }
    }
}
