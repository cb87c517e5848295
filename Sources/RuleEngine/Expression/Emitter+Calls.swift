/// Closures for list macros and builtin functions.
extension Emitter {
    /// CEL macro semantics: `exists` is true if any element is true (errors elsewhere absorbed),
    /// `all` is false if any element is false; otherwise an element's error is the result.
    /// `exists_one`, `filter` and `map` propagate the first error.
    func emitMacro(_ macro: TypedExpression.Macro, _ target: TypedExpression, slot: Int, _ body: TypedExpression) -> Evaluator {
        if case .list(.record) = target.type { return emitTableMacro(macro, target, slot: slot, body) }
        let list = emit(target)
        let predicate = emit(body)
        @Sendable @inline(__always) func bind(_ frame: inout Frame, _ item: RuleValue) {
            if slot == 0 { frame.local0 = item } else { frame.local1 = item }
        }
        switch macro {
        case .exists, .all:
            let decisive = macro == .exists
            return { frame throws(EvaluationError) in
                var firstError: EvaluationError?
                for item in Operations.list(try list(&frame)) {
                    bind(&frame, item)
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
                var count = 0
                for item in Operations.list(try list(&frame)) {
                    bind(&frame, item)
                    if Operations.truth(try predicate(&frame)) { count += 1 }
                }
                return .bool(count == 1)
            }
        case .filter:
            return { frame throws(EvaluationError) in
                var kept: [RuleValue] = []
                for item in Operations.list(try list(&frame)) {
                    bind(&frame, item)
                    if Operations.truth(try predicate(&frame)) { kept.append(item) }
                }
                return .list(kept)
            }
        case .map:
            return { frame throws(EvaluationError) in
                let items = Operations.list(try list(&frame))
                var mapped: [RuleValue] = []
                mapped.reserveCapacity(items.count)
                for item in items {
                    bind(&frame, item)
                    mapped.append(try predicate(&frame))
                }
                return .list(mapped)
            }
        }
    }

    func emitBuiltin(_ builtin: TypedExpression.Builtin, _ arguments: [TypedExpression], result: RuleType,
                     _ range: SourceRange) -> Evaluator {
        if let fused = emitFusedTableCall(builtin, arguments, result: result, range) { return fused }
        let values = arguments.map(emit)
        let first = values[0]
        switch builtin {
        case .size:
            return { frame throws(EvaluationError) in
                switch try first(&frame) {
                case .list(let items): return .int(Int64(items.count))
                case .table(let table): return .int(Int64(table.count))
                case .string(let text): return .int(Int64(text.unicodeScalars.count))
                case .map(let entries): return .int(Int64(entries.count))
                default: return .int(0)
                }
            }
        case .sum:
            return { frame throws(EvaluationError) in
                let items = Operations.list(try first(&frame))
                if result == .money {
                    var total = Money(milliunits: 0, currencyCode: 0)
                    for item in items { total = try Operations.addMoney(total, Operations.money(item), subtracting: false, range) }
                    return .money(total)
                }
                var total: Int64 = 0
                for item in items { total = try Operations.add(total, Operations.integer(item), range) }
                return result == .duration ? .duration(total) : .int(total)
            }
        case .min, .max:
            let wantsLess = builtin == .min
            let name = builtin.rawValue
            let isListForm = arguments.count == 1
            return { frame throws(EvaluationError) in
                var items: [RuleValue]
                if isListForm {
                    items = Operations.list(try first(&frame))
                } else {
                    items = []
                    for value in values { items.append(try value(&frame)) }
                }
                guard var best = items.first else { throw EvaluationError("\(name) of an empty list", at: range) }
                for item in items.dropFirst() where try Operations.less(item, best, range) == wantsLess && item != best {
                    best = item
                }
                return best
            }
        case .days, .hours:
            let unit = builtin == .days ? RuleTime.day : RuleTime.hour
            return { frame throws(EvaluationError) in
                .duration(try Operations.multiply(Operations.integer(try first(&frame)), unit, range))
            }
        case .since:
            let unknown = EvaluationError("now is unknown: the facts have no event.signedDate", at: range)
            return { frame throws(EvaluationError) in
                guard let now = frame.now else { throw unknown }
                return .duration(try Operations.subtract(now, Operations.integer(try first(&frame)), range))
            }
        case .startsWith, .endsWith, .contains:
            let second = values[1]
            return { frame throws(EvaluationError) in
                let text = Operations.string(try first(&frame))
                let part = Operations.string(try second(&frame))
                switch builtin {
                case .startsWith: return .bool(text.hasPrefix(part))
                case .endsWith: return .bool(text.hasSuffix(part))
                default: return .bool(part.isEmpty || text.contains(part))
                }
            }
        }
    }
}
