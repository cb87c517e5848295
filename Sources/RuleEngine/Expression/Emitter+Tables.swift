/// List macros over tables of records (`customer.transactions.exists(t, …)`): the macro variable
/// is a row index into the table, so the body's field reads are plain array reads.
extension Emitter {
    func emitTableMacro(_ macro: TypedExpression.Macro, _ target: TypedExpression, slot: Int, _ body: TypedExpression) -> Evaluator {
        let list = emit(target)
        let predicate = emit(body)
        @Sendable @inline(__always) func table(_ value: RuleValue) -> RecordTable? {
            if case .table(let table) = value { return table }
            return nil
        }
        @Sendable @inline(__always) func enter(_ frame: inout Frame, _ table: RecordTable) {
            frame.enter(slot, table)
        }
        @Sendable @inline(__always) func bind(_ frame: inout Frame, _ row: Int) {
            if slot == 0 { frame.row0 = row } else { frame.row1 = row }
        }
        switch macro {
        case .exists, .all:
            let decisive = macro == .exists
            return { frame throws(EvaluationError) in
                guard let rows = table(try list(&frame)) else { return .bool(!decisive) }
                enter(&frame, rows)
                var firstError: EvaluationError?
                for row in 0..<rows.count {
                    bind(&frame, row)
                    do throws(EvaluationError) {
                        if Operations.truth(try predicate(&frame)) == decisive { return .bool(decisive) }
                    } catch {
                        if firstError == nil { firstError = error }
                    }
                }
                if let firstError { throw firstError }
                return .bool(!decisive)
            }
        case .existsOne:
            return { frame throws(EvaluationError) in
                guard let rows = table(try list(&frame)) else { return .bool(false) }
                enter(&frame, rows)
                var count = 0
                for row in 0..<rows.count {
                    bind(&frame, row)
                    if Operations.truth(try predicate(&frame)) { count += 1 }
                }
                return .bool(count == 1)
            }
        case .filter:
            return { frame throws(EvaluationError) in
                guard let rows = table(try list(&frame)) else { return .list([]) }
                enter(&frame, rows)
                var kept: [Int] = []
                for row in 0..<rows.count {
                    bind(&frame, row)
                    if Operations.truth(try predicate(&frame)) { kept.append(row) }
                }
                return .table(kept.count == rows.count ? rows : rows.selecting(kept))
            }
        case .map:
            return { frame throws(EvaluationError) in
                guard let rows = table(try list(&frame)) else { return .list([]) }
                enter(&frame, rows)
                var mapped: [RuleValue] = []
                mapped.reserveCapacity(rows.count)
                for row in 0..<rows.count {
                    bind(&frame, row)
                    mapped.append(try predicate(&frame))
                }
                return .list(mapped)
            }
        }
    }
}

/// Fused forms that avoid building intermediate lists: `size(xs.filter(x, p))` counts, and
/// `sum/min/max(xs.map(x, e))` aggregate while walking the table.
extension Emitter {
    /// The fused closure for `builtin(arguments)` when its argument is a macro over a table, else nil.
    func emitFusedTableCall(_ builtin: TypedExpression.Builtin, _ arguments: [TypedExpression], result: RuleType,
                            _ range: SourceRange) -> Evaluator? {
        guard arguments.count == 1, tracing[ObjectIdentifier(arguments[0])] == nil,
              case .macro(let macro, let target, let slot, let body) = arguments[0].kind,
              case .list(.record) = target.type
        else { return nil }
        let list = emit(target)
        let inner = emit(body)
        @Sendable @inline(__always) func enter(_ frame: inout Frame, _ value: RuleValue) -> Int {
            guard case .table(let table) = value else { return 0 }
            frame.enter(slot, table)
            return table.count
        }
        @Sendable @inline(__always) func bind(_ frame: inout Frame, _ row: Int) {
            if slot == 0 { frame.row0 = row } else { frame.row1 = row }
        }
        switch (builtin, macro) {
        case (.size, .filter):
            return { frame throws(EvaluationError) in
                let count = enter(&frame, try list(&frame))
                var matches: Int64 = 0
                for row in 0..<count {
                    bind(&frame, row)
                    if Operations.truth(try inner(&frame)) { matches += 1 }
                }
                return .int(matches)
            }
        case (.sum, .map):
            return { frame throws(EvaluationError) in
                let count = enter(&frame, try list(&frame))
                var total: Int64 = 0
                var currency = Money(milliunits: 0, currencyCode: 0)
                for row in 0..<count {
                    bind(&frame, row)
                    let value = try inner(&frame)
                    if case .money(let amount) = value {
                        currency = try Operations.currency(currency, amount, "add", range)
                        total = try Operations.add(total, amount.milliunits, range)
                    } else {
                        total = try Operations.add(total, Operations.integer(value), range)
                    }
                }
                switch result {
                case .money: return .money(Money(milliunits: total, currencyCode: currency.currencyCode))
                case .duration: return .duration(total)
                default: return .int(total)
                }
            }
        case (.min, .map), (.max, .map):
            let wantsLess = builtin == .min
            let name = builtin.rawValue
            return { frame throws(EvaluationError) in
                let count = enter(&frame, try list(&frame))
                var best: RuleValue?
                for row in 0..<count {
                    bind(&frame, row)
                    let value = try inner(&frame)
                    if let current = best {
                        if try Operations.less(value, current, range) == wantsLess, value != current { best = value }
                    } else {
                        best = value
                    }
                }
                guard let best else { throw EvaluationError("\(name) of an empty list", at: range) }
                return best
            }
        default:
            return nil
        }
    }
}
