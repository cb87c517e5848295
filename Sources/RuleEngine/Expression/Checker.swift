/// The static type checker: resolves names (facts, `now`, `constants.*`, `segment.*`, macro
/// variables, bare enum values), field names to slots, and operator and function overloads;
/// enforces `has()` guards on optional facts; folds constant sub-expressions (so a currency
/// mismatch between two literals is a check-time error); collects every diagnostic it can.
struct Checker {
    let environment: CompileEnvironment
    private(set) var diagnostics: [ExpressionDiagnostic] = []
    private(set) var referencedSegments: Set<String> = []
    private(set) var referencedConstants: Set<String> = []
    /// Dotted paths of the facts read (`subscription.commitment`, `subscription.commitment.period`),
    /// including those read through segments; fields of a macro's rows are not paths of the document.
    private(set) var referencedFacts: Set<String> = []
    /// Macro variables in scope; the index is the frame slot.
    var locals: [(name: String, type: RuleType)] = []
    /// Optional fact paths proven present here.
    var guards: Set<String>

    static let reservedNames: Set<String> = ["now", "constants", "segment", "true", "false", "null", "in"]

    init(environment: CompileEnvironment) {
        self.environment = environment
        self.guards = environment.guardedFacts
    }

    /// Records that the expression reads the fact at `path` (``referencedFacts``).
    mutating func markRead(_ path: String) { referencedFacts.insert(path) }

    mutating func report(_ message: String, _ range: SourceRange, didYouMean replacement: String? = nil) {
        diagnostics.append(.unknown(message, at: range, didYouMean: replacement))
    }

    /// Names a bare identifier can refer to here (for did-you-mean).
    var variableNames: [String] {
        locals.map(\.name) + (environment.allowsFacts ? environment.schema.rootNames + ["now", "segment"] : []) + ["constants"]
    }

    /// Whether `syntax` is an identifier that is not a variable: a candidate enum value name.
    func isBareName(_ syntax: Syntax) -> Bool {
        guard case .identifier(let name) = syntax.kind else { return false }
        return !locals.contains { $0.name == name } && !(environment.allowsFacts && environment.schema.rootNames.contains(name))
            && !Self.reservedNames.contains(name)
    }

    /// Checks `syntax`; `expected` resolves bare enum names and the elements of list literals.
    mutating func check(_ syntax: Syntax, expected: RuleType? = nil) -> TypedExpression? {
        switch syntax.kind {
        case .int(let value): return TypedExpression(.constant(.int(value)), .int, syntax.range)
        case .string(let value): return TypedExpression(.constant(.string(value)), .string, syntax.range)
        case .bool(let value): return TypedExpression(.constant(.bool(value)), .bool, syntax.range)
        case .identifier(let name): return checkIdentifier(name, syntax.range, expected: expected)
        case .select(let base, let name, let nameRange): return checkSelect(syntax, base, name, nameRange)
        case .index(let base, let key): return checkIndex(syntax, base, key)
        case .list(let elements): return checkList(syntax, elements, expected: expected)
        case .unary(let op, let operand): return checkUnary(syntax, op, operand)
        case .binary(let op, let left, let right): return checkBinary(syntax, op, left, right)
        case .call(let name, let nameRange, let target, let arguments):
            return checkCall(syntax, name, nameRange, target, arguments)
        }
    }

    private mutating func checkIdentifier(_ name: String, _ range: SourceRange, expected: RuleType?) -> TypedExpression? {
        if let slot = locals.lastIndex(where: { $0.name == name }) {
            let type = locals[slot].type
            if case .record(let record) = type {
                return TypedExpression(.record(record, .row(slot: slot, width: record.cellCount), offset: 0), type, range)
            }
            return TypedExpression(.local(slot), type, range)
        }
        let schema = environment.schema
        if environment.allowsFacts, let slot = schema.document.index(of: name), case .record(let record) = schema.document.fields[slot].type {
            return TypedExpression(.record(record, .document, offset: schema.document.cellOffsets[slot]), .record(record), range)
        }
        if name == "now" {
            guard environment.allowsFacts else {
                report("constants cannot use now", range)
                return nil
            }
            return TypedExpression(.now, .timestamp, range)
        }
        if name == "constants" || name == "segment" {
            report("'\(name)' must be followed by '.<name>'", range)
            return nil
        }
        if !environment.allowsFacts, schema.document.index(of: name) != nil {
            report("constants cannot read facts ('\(name)')", range)
            return nil
        }
        if case .enumeration(let ruleEnum)? = expected?.unwrapped {
            if let ordinal = ruleEnum.ordinal(named: name) {
                return TypedExpression(.constant(.enumeration(ordinal)), .enumeration(ruleEnum), range)
            }
            report("unknown value '\(name)' for \(ruleEnum.name)", range,
                   didYouMean: DidYouMean.suggestion(for: name, among: ruleEnum.caseNames))
            return nil
        }
        if let owner = RuleEnum.allApple.first(where: { $0.ordinal(named: name) != nil }) {
            report("'\(name)' is a \(owner.name) value; compare it with a fact of that type, e.g. x == \(name)", range)
            return nil
        }
        report("unknown name '\(name)'", range, didYouMean: DidYouMean.suggestion(for: name, among: variableNames))
        return nil
    }

    private mutating func checkSelect(_ syntax: Syntax, _ base: Syntax, _ name: String, _ nameRange: SourceRange) -> TypedExpression? {
        if case .identifier(let root) = base.kind, !locals.contains(where: { $0.name == root }) {
            if root == "constants" { return checkConstant(name, syntax.range, nameRange) }
            if root == "segment" { return checkSegment(name, syntax.range, nameRange) }
        }
        guard let typedBase = check(base) else { return nil }
        guard case .record(let record, let recordBase, let recordOffset) = typedBase.kind else {
            report("\(typedBase.type) has no fields ('\(name)')", nameRange)
            return nil
        }
        guard let slot = record.index(of: name) else {
            let owner = base.dottedPath ?? record.name
            report("\(owner) has no field '\(name)'", nameRange,
                   didYouMean: DidYouMean.suggestion(for: name, among: record.fields.map(\.name)))
            return nil
        }
        let field = record.fields[slot]
        let path = syntax.dottedPath ?? name
        if field.isOptional, !guards.contains(path) {
            diagnostics.append(ExpressionDiagnostic(
                "\(path) is optional and may be missing; read it only where has(\(path)) holds",
                at: syntax.range, suggestion: "write has(\(path)) && … in this condition or in an earlier one",
                replacement: "has(\(path))"))
            return nil
        }
        let offset = recordOffset + record.cellOffsets[slot]
        if recordBase == .document { markRead(path) }
        if case .record(let nested) = field.type {
            return TypedExpression(.record(nested, recordBase, offset: offset), field.type, syntax.range)
        }
        if let nested = RuleRecord.optionalRecord(field.type) {
            // Its fields' cells follow its presence cell.
            return TypedExpression(.record(nested, recordBase, offset: offset + 1), .record(nested), syntax.range)
        }
        return TypedExpression(.cell(recordBase, offset: offset, path: path), field.type.unwrapped, syntax.range)
    }

    private mutating func checkConstant(_ name: String, _ range: SourceRange, _ nameRange: SourceRange) -> TypedExpression? {
        guard let constant = environment.constants[name] else {
            if environment.failedConstants.contains(name) { return nil }
            report("unknown constant '\(name)'", nameRange,
                   didYouMean: DidYouMean.suggestion(for: name, among: environment.constants.keys.sorted()))
            return nil
        }
        referencedConstants.insert(name)
        return TypedExpression(.constant(constant.value), constant.type, range)
    }

    private mutating func checkSegment(_ name: String, _ range: SourceRange, _ nameRange: SourceRange) -> TypedExpression? {
        guard environment.allowsFacts else {
            report("constants cannot use segments", range)
            return nil
        }
        guard let segment = environment.segments[name] else {
            if environment.failedSegments.contains(name) { return nil }
            report("unknown segment '\(name)'", nameRange,
                   didYouMean: DidYouMean.suggestion(for: name, among: environment.segments.keys.sorted()))
            return nil
        }
        referencedSegments.insert(name)
        referencedFacts.formUnion(segment.referencedFacts)
        return TypedExpression(.segment(name, segment), segment.type, range)
    }

    private mutating func checkIndex(_ syntax: Syntax, _ base: Syntax, _ key: Syntax) -> TypedExpression? {
        let typedBase = check(base)
        let typedKey = check(key)
        guard let typedBase, let typedKey else { return nil }
        guard case .map(let valueType) = typedBase.type else {
            report("only tables (maps) can be indexed with [ ], not \(typedBase.type)", syntax.range)
            return nil
        }
        guard typedKey.type == .string else {
            report("table keys are strings, not \(typedKey.type)", key.range)
            return nil
        }
        if case .map(let entries)? = typedBase.constantValue, case .string(let text)? = typedKey.constantValue, entries[text] == nil {
            report("\(base.dottedPath ?? "the table") has no entry '\(text)'", key.range,
                   didYouMean: DidYouMean.suggestion(for: text, among: entries.keys.sorted()))
            return nil
        }
        let mapText = base.dottedPath ?? "the table"
        return fold(TypedExpression(.index(typedBase, typedKey, mapText: mapText), valueType, syntax.range))
    }

    private mutating func checkList(_ syntax: Syntax, _ elements: [Syntax], expected: RuleType?) -> TypedExpression? {
        var elementType: RuleType?
        if case .list(let inner)? = expected { elementType = inner }
        var typed: [TypedExpression] = []
        for element in elements {
            guard let item = check(element, expected: elementType) else { continue }
            if case .record = item.type {
                report("lists of records cannot be written; use a fact list such as customer.transactions", element.range)
                continue
            }
            if let elementType, item.type != elementType {
                report("list elements must all be \(elementType), not \(item.type)", element.range)
                continue
            }
            elementType = item.type
            typed.append(item)
        }
        guard typed.count == elements.count else { return nil }
        guard let elementType else {
            report("an empty list needs a type from the other side of the comparison", syntax.range)
            return nil
        }
        return fold(TypedExpression(.list(typed), .list(elementType), syntax.range))
    }

    /// Evaluates `node` now when all its inputs are constants; an error becomes a diagnostic.
    mutating func fold(_ node: TypedExpression) -> TypedExpression? {
        guard !node.children.isEmpty, node.children.allSatisfy({ $0.constantValue != nil }) else { return node }
        if case .macro = node.kind { return node }
        if node.readsFacts { return node }  // since() reads now
        var frame = Frame(cells: [], now: nil)
        do {
            return TypedExpression(.constant(try Emitter(tracing: [:]).emit(node)(&frame)), node.type, node.range)
        } catch {
            report(error.message, node.range)
            return nil
        }
    }
}
