/// The runtime primitives the compiled closures use: unboxing, comparisons, money with currency
/// checks, overflow-checked integer arithmetic. Errors carry the range of the failing operator.
enum Operations {
    @inline(__always) static func truth(_ value: RuleValue) -> Bool {
        if case .bool(true) = value { return true }
        return false
    }

    /// The Int64 inside an int, duration or timestamp.
    @inline(__always) static func integer(_ value: RuleValue) -> Int64 {
        switch value {
        case .int(let number), .duration(let number), .timestamp(let number): number
        default: 0
        }
    }

    @inline(__always) static func string(_ value: RuleValue) -> String {
        if case .string(let text) = value { return text }
        return ""
    }

    @inline(__always) static func money(_ value: RuleValue) -> Money {
        if case .money(let amount) = value { return amount }
        return Money(milliunits: 0, currencyCode: 0)
    }

    @inline(__always) static func list(_ value: RuleValue) -> [RuleValue] {
        if case .list(let items) = value { return items }
        return []
    }

    @inline(__always) static func holds<T: Comparable>(_ comparison: TypedExpression.Comparison, _ left: T, _ right: T) -> Bool {
        switch comparison {
        case .equal: left == right
        case .notEqual: left != right
        case .less: left < right
        case .lessEqual: left <= right
        case .greater: left > right
        case .greaterEqual: left >= right
        }
    }

    /// The common currency of two amounts, or an error. A currency-less zero (the sum of an
    /// empty list) takes the other side's currency.
    @inline(__always)
    static func currency(_ left: Money, _ right: Money, _ verb: String, _ range: SourceRange) throws(EvaluationError) -> Money {
        if left.currencyCode == right.currencyCode { return left }
        if left.currencyCode == 0, left.milliunits == 0 { return right }
        if right.currencyCode == 0, right.milliunits == 0 { return left }
        throw mismatch(left, right, verb, range)
    }

    static func mismatch(_ left: Money, _ right: Money, _ verb: String, _ range: SourceRange) -> EvaluationError {
        EvaluationError("cannot \(verb) \(left) \(verb == "compare" ? "with" : "and") \(right): different currencies", at: range)
    }

    @inline(__always)
    static func compareMoney(_ comparison: TypedExpression.Comparison, _ left: Money, _ right: Money,
                             _ range: SourceRange) throws(EvaluationError) -> Bool {
        _ = try currency(left, right, "compare", range)
        return holds(comparison, left.milliunits, right.milliunits)
    }

    static func add(_ left: Int64, _ right: Int64, _ range: SourceRange) throws(EvaluationError) -> Int64 {
        let (sum, overflow) = left.addingReportingOverflow(right)
        if overflow { throw EvaluationError("integer overflow", at: range) }
        return sum
    }

    static func subtract(_ left: Int64, _ right: Int64, _ range: SourceRange) throws(EvaluationError) -> Int64 {
        let (difference, overflow) = left.subtractingReportingOverflow(right)
        if overflow { throw EvaluationError("integer overflow", at: range) }
        return difference
    }

    static func multiply(_ left: Int64, _ right: Int64, _ range: SourceRange) throws(EvaluationError) -> Int64 {
        let (product, overflow) = left.multipliedReportingOverflow(by: right)
        if overflow { throw EvaluationError("integer overflow", at: range) }
        return product
    }

    static func addMoney(_ left: Money, _ right: Money, subtracting: Bool, _ range: SourceRange) throws(EvaluationError) -> Money {
        let carrier = try currency(left, right, subtracting ? "subtract" : "add", range)
        let amount = subtracting ? try subtract(left.milliunits, right.milliunits, range) : try add(left.milliunits, right.milliunits, range)
        return Money(milliunits: amount, currencyCode: carrier.currencyCode)
    }

    /// Equality of two values of the same static type; money of different currencies is an error.
    static func equal(_ left: RuleValue, _ right: RuleValue, _ range: SourceRange) throws(EvaluationError) -> Bool {
        if case .money(let a) = left, case .money(let b) = right {
            return try compareMoney(.equal, a, b, range)
        }
        return left == right
    }

    /// Orders two values of the same ordered static type (for `min`/`max`): true when `left < right`.
    static func less(_ left: RuleValue, _ right: RuleValue, _ range: SourceRange) throws(EvaluationError) -> Bool {
        switch (left, right) {
        case (.money(let a), .money(let b)): try compareMoney(.less, a, b, range)
        case (.string(let a), .string(let b)): a < b
        default: integer(left) < integer(right)
        }
    }
}
