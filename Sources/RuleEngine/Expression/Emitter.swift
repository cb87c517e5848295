/// Turns a ``TypedExpression`` into closures. Specialises what the hot path needs: a field of a
/// fact root or of a macro variable is one array read, enum and integer comparisons against a
/// constant unbox once, `&&`/`||` short-circuit with CEL's error absorption. With `tracing`
/// (explanations only) the chosen operand nodes record their outcome in the frame's recorder.
struct Emitter {
    /// Operand nodes to record, by identity, with their recorder slot.
    let tracing: [ObjectIdentifier: Int]

    func emit(_ node: TypedExpression) -> Evaluator {
        let plain = emitPlain(node)
        guard let slot = tracing[ObjectIdentifier(node)] else { return plain }
        return { frame throws(EvaluationError) in
            do throws(EvaluationError) {
                let value = try plain(&frame)
                frame.recorder?.results[slot] = .value(value)
                return value
            } catch {
                frame.recorder?.results[slot] = .error(error)
                throw error
            }
        }
    }

    private func emitPlain(_ node: TypedExpression) -> Evaluator {
        switch node.kind {
        case .constant(let value):
            return { _ throws(EvaluationError) in value }
        case .record(let record, let base, let offset):
            return emitRecord(record, base, offset)
        case .cell(let base, let offset, let path):
            return emitCell(base, offset, missing: EvaluationError("\(path) is missing", at: node.range))
        case .now:
            let unknown = EvaluationError("now is unknown: the facts have no event.signedDate", at: node.range)
            return { frame throws(EvaluationError) in
                guard let now = frame.now else { throw unknown }
                return .timestamp(now)
            }
        case .local(let slot):
            if slot == 0 { return { frame throws(EvaluationError) in frame.local0 } }
            return { frame throws(EvaluationError) in frame.local1 }
        case .has(let base, let offset):
            return emitHas(base, offset)
        case .index(let map, let key, let mapText):
            return emitIndex(map, key, mapText, node.range)
        case .not(let operand):
            if case .has(let base, let offset) = operand.kind, tracing[ObjectIdentifier(operand)] == nil {
                return emitHas(base, offset, negated: true)
            }
            let value = emit(operand)
            return { frame throws(EvaluationError) in .bool(!Operations.truth(try value(&frame))) }
        case .negate(let operand):
            return emitNegate(operand, node.range)
        case .and(let left, let right):
            return emitLogical(left, right, decisive: false)
        case .or(let left, let right):
            return emitLogical(left, right, decisive: true)
        case .compare(let comparison, let left, let right):
            return emitCompare(comparison, left, right, node.range)
        case .inList(let element, let list):
            return emitInList(element, list, node.range)
        case .inSet(let element, let values):
            return emitInSet(element, values)
        case .inMap(let key, let map):
            let keyValue = emit(key)
            let mapValue = emit(map)
            return { frame throws(EvaluationError) in
                let text = Operations.string(try keyValue(&frame))
                guard case .map(let entries) = try mapValue(&frame) else { return .bool(false) }
                return .bool(entries[text] != nil)
            }
        case .arithmetic(let op, let left, let right):
            return emitArithmetic(op, left, right, result: node.type, node.range)
        case .list(let items):
            let values = items.map(emit)
            return { frame throws(EvaluationError) in
                var result: [RuleValue] = []
                result.reserveCapacity(values.count)
                for value in values { result.append(try value(&frame)) }
                return .list(result)
            }
        case .macro(let macro, let target, let slot, let body):
            return emitMacro(macro, target, slot: slot, body)
        case .builtin(let builtin, let arguments):
            return emitBuiltin(builtin, arguments, result: node.type, node.range)
        case .segment(_, let compiled):
            let segment = compiled.fast
            return { frame throws(EvaluationError) in
                var inner = Frame(cells: frame.cells, now: frame.now)
                return try segment(&inner)
            }
        }
    }

    /// One cell: of the document, or of the current row of the table macro slot 0 or 1 walks.
    private func emitCell(_ base: TypedExpression.RecordBase, _ offset: Int, missing: EvaluationError) -> Evaluator {
        switch base {
        case .document:
            return { frame throws(EvaluationError) in
                let value = frame.cells[offset]
                if case .absent = value { throw missing }
                return value
            }
        case .row(let slot, let width):
            return { frame throws(EvaluationError) in
                let cell = frame.rowCell(slot, (slot == 0 ? frame.row0 : frame.row1) &* width &+ offset)
                if case .absent = cell.pointee { throw missing }
                return cell.pointee
            }
        }
    }

    /// Whether a cell is present (absent, when `negated`: `!has(…)` in one closure).
    private func emitHas(_ base: TypedExpression.RecordBase, _ offset: Int, negated: Bool = false) -> Evaluator {
        switch base {
        case .document:
            return { frame throws(EvaluationError) in
                if case .absent = frame.cells[offset] { return .bool(negated) }
                return .bool(!negated)
            }
        case .row(let slot, let width):
            return { frame throws(EvaluationError) in
                if case .absent = frame.rowCell(slot, (slot == 0 ? frame.row0 : frame.row1) &* width &+ offset).pointee {
                    return .bool(negated)
                }
                return .bool(!negated)
            }
        }
    }

    /// A whole record as a value (rare: only when a record is the result itself).
    private func emitRecord(_ record: RuleRecord, _ base: TypedExpression.RecordBase, _ offset: Int) -> Evaluator {
        switch base {
        case .document:
            return { frame throws(EvaluationError) in RecordTable.nest(record, frame.cells, at: offset) }
        case .row(let slot, let width):
            return { frame throws(EvaluationError) in
                let table = (slot == 0 ? frame.table0 : frame.table1).unsafelyUnwrapped
                return RecordTable.nest(record, table.cells, at: (slot == 0 ? frame.row0 : frame.row1) * width + offset)
            }
        }
    }

    private func emitIndex(_ map: TypedExpression, _ key: TypedExpression, _ mapText: String, _ range: SourceRange) -> Evaluator {
        let keyValue = emit(key)
        if case .map(let entries)? = map.constantValue, tracing[ObjectIdentifier(map)] == nil {
            if entries.count <= 8 {
                let keys = Array(entries.keys)
                let values = keys.map { entries[$0]! }
                if case .cell(.row(let slot, let width), let offset, let path) = key.kind, tracing[ObjectIdentifier(key)] == nil {
                    // `constants.table[t.field]` in a table macro: the key cell is compared in place.
                    let missing = EvaluationError("\(path) is missing", at: key.range)
                    return { frame throws(EvaluationError) in
                        let cell = frame.rowCell(slot, (slot == 0 ? frame.row0 : frame.row1) &* width &+ offset)
                        switch cell.pointee {
                        case .absent: throw missing
                        case .string(let text):
                            guard let index = keys.firstIndex(of: text) else {
                                throw EvaluationError("\(mapText) has no entry for '\(text)'", at: range)
                            }
                            return values[index]
                        default:
                            guard let index = keys.firstIndex(of: "") else {
                                throw EvaluationError("\(mapText) has no entry for ''", at: range)
                            }
                            return values[index]
                        }
                    }
                }
                return { frame throws(EvaluationError) in
                    let text = Operations.string(try keyValue(&frame))
                    guard let index = keys.firstIndex(of: text) else {
                        throw EvaluationError("\(mapText) has no entry for '\(text)'", at: range)
                    }
                    return values[index]
                }
            }
            return { frame throws(EvaluationError) in
                let text = Operations.string(try keyValue(&frame))
                guard let value = entries[text] else { throw EvaluationError("\(mapText) has no entry for '\(text)'", at: range) }
                return value
            }
        }
        let mapValue = emit(map)
        return { frame throws(EvaluationError) in
            guard case .map(let entries) = try mapValue(&frame) else { throw EvaluationError("\(mapText) is not a table", at: range) }
            let text = Operations.string(try keyValue(&frame))
            guard let value = entries[text] else { throw EvaluationError("\(mapText) has no entry for '\(text)'", at: range) }
            return value
        }
    }

    /// `&&` (`decisive == false`: a false side decides) and `||` (a true side decides). An error
    /// on one side is absorbed when the other side decides; otherwise the first error is thrown.
    private func emitLogical(_ left: TypedExpression, _ right: TypedExpression, decisive: Bool) -> Evaluator {
        let first = emit(left)
        let second = emit(right)
        return { frame throws(EvaluationError) in
            var firstError: EvaluationError?
            do throws(EvaluationError) {
                if Operations.truth(try first(&frame)) == decisive { return .bool(decisive) }
            } catch {
                firstError = error
            }
            let secondValue: Bool
            do throws(EvaluationError) {
                secondValue = Operations.truth(try second(&frame))
            } catch {
                throw firstError ?? error
            }
            if secondValue == decisive { return .bool(decisive) }
            if let firstError { throw firstError }
            return .bool(!decisive)
        }
    }

    private func emitNegate(_ operand: TypedExpression, _ range: SourceRange) -> Evaluator {
        let value = emit(operand)
        return { frame throws(EvaluationError) in
            switch try value(&frame) {
            case .int(let number): return .int(try Operations.subtract(0, number, range))
            case .duration(let number): return .duration(try Operations.subtract(0, number, range))
            case .money(let amount):
                return .money(Money(milliunits: try Operations.subtract(0, amount.milliunits, range), currencyCode: amount.currencyCode))
            case let other: return other
            }
        }
    }
}
