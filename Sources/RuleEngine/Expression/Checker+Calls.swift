/// Typing of function calls and macros: `has`, list macros, `size`/`count`, `sum`/`min`/`max`,
/// `days`/`hours`/`since`, literal constructors `money`/`date`/`timestamp`/`duration`, and the
/// string member functions.
extension Checker {
    static let functionNames = ["has", "size", "count", "sum", "min", "max", "days", "hours", "since",
                                "money", "date", "timestamp", "duration"]
    static let memberNames = ["exists", "all", "exists_one", "filter", "map", "size", "startsWith", "endsWith", "contains"]

    mutating func checkCall(_ syntax: Syntax, _ name: String, _ nameRange: SourceRange, _ target: Syntax?,
                            _ arguments: [Syntax]) -> TypedExpression? {
        if let target {
            if let macro = TypedExpression.Macro(rawValue: name) {
                return checkMacro(syntax, macro, target, arguments)
            }
            guard Self.memberNames.contains(name) else {
                report("unknown function '\(name)'", nameRange, didYouMean: DidYouMean.suggestion(for: name, among: Self.memberNames))
                return nil
            }
            return checkFunction(syntax, name, nameRange, [target] + arguments, isMember: true)
        }
        if name == "has" { return checkHas(syntax, arguments) }
        guard Self.functionNames.contains(name) else {
            let guess = DidYouMean.suggestion(for: name, among: Self.functionNames + Self.memberNames)
            report("unknown function '\(name)'", nameRange, didYouMean: guess)
            return nil
        }
        return checkFunction(syntax, name, nameRange, arguments, isMember: false)
    }

    private mutating func checkHas(_ syntax: Syntax, _ arguments: [Syntax]) -> TypedExpression? {
        guard arguments.count == 1, case .select(let base, let name, let nameRange) = arguments[0].kind else {
            report("has() takes one fact field, e.g. has(usage.consumptionPercentage)", syntax.range)
            return nil
        }
        guard let typedBase = check(base) else { return nil }
        guard case .record(let record, let recordBase, let recordOffset) = typedBase.kind else {
            report("has() tests a field of a record, and \(typedBase.type) has none", arguments[0].range)
            return nil
        }
        guard let slot = record.index(of: name) else {
            report("\(base.dottedPath ?? record.name) has no field '\(name)'", nameRange,
                   didYouMean: DidYouMean.suggestion(for: name, among: record.fields.map(\.name)))
            return nil
        }
        guard record.fields[slot].isOptional else {
            report("\(arguments[0].dottedPath ?? name) is always present; has() is only for optional facts", arguments[0].range)
            return nil
        }
        if recordBase == .document, let path = arguments[0].dottedPath { markRead(path) }
        return TypedExpression(.has(recordBase, offset: recordOffset + record.cellOffsets[slot]), .bool, syntax.range)
    }

    private mutating func checkMacro(_ syntax: Syntax, _ macro: TypedExpression.Macro, _ target: Syntax,
                                     _ arguments: [Syntax]) -> TypedExpression? {
        guard arguments.count == 2, case .identifier(let variable) = arguments[0].kind else {
            report("\(macro.rawValue) takes a variable name and an expression, e.g. xs.\(macro.rawValue)(x, …)", syntax.range)
            return nil
        }
        guard let typedTarget = check(target) else { return nil }
        guard case .list(let element) = typedTarget.type else {
            report("\(macro.rawValue) works on lists, not \(typedTarget.type)", target.range)
            return nil
        }
        guard locals.count < ExpressionCompiler.maximumMacroNesting else {
            report("list macros nest at most \(ExpressionCompiler.maximumMacroNesting) deep; move the inner part into a segment", syntax.range)
            return nil
        }
        let taken = locals.contains { $0.name == variable } || Self.reservedNames.contains(variable)
            || environment.schema.rootNames.contains(variable)
        guard !taken else {
            report("'\(variable)' is already a name here; choose another variable name", arguments[0].range)
            return nil
        }
        let slot = locals.count
        locals.append((variable, element))
        let body = check(arguments[1])
        locals.removeLast()
        guard let body else { return nil }
        let resultType: RuleType
        switch macro {
        case .map:
            if case .record = body.type {
                report("map must produce values, not records; map to a field such as \(variable).price", body.range)
                return nil
            }
            resultType = .list(body.type)
        case .exists, .all, .existsOne, .filter:
            guard body.type == .bool else {
                report("\(macro.rawValue) needs a condition (true or false), not \(body.type)", body.range)
                return nil
            }
            resultType = macro == .filter ? typedTarget.type : .bool
        }
        return TypedExpression(.macro(macro, typedTarget, slot: slot, body: body), resultType, syntax.range)
    }

    private mutating func checkFunction(_ syntax: Syntax, _ name: String, _ nameRange: SourceRange, _ arguments: [Syntax],
                                        isMember: Bool) -> TypedExpression? {
        switch name {
        case "money", "date", "timestamp", "duration": return checkLiteralFunction(syntax, name, arguments)
        default: break
        }
        var typed: [TypedExpression] = []
        for argument in arguments {
            if let item = check(argument) { typed.append(item) }
        }
        guard typed.count == arguments.count else { return nil }
        let types = typed.map(\.type)
        if name == "since", !environment.allowsFacts {
            report("constants cannot use since(), which reads now", syntax.range)
            return nil
        }
        guard let (builtin, result) = Self.overload(name, types, isMember: isMember) else {
            let shown = (isMember ? Array(types.dropFirst()) : types).map(\.description).joined(separator: ", ")
            let on = isMember ? " on \(types.first?.description ?? "")" : ""
            report("\(name)() does not accept (\(shown))\(on); use \(Self.signature(name))", syntax.range)
            return nil
        }
        return fold(TypedExpression(.builtin(builtin, typed), result, syntax.range))
    }

    /// `money('9.99 USD')`, `date('2026-12-01')`, `timestamp('2026-12-01T00:00:00Z')`,
    /// `duration('36h')`: the text must be a string literal and is parsed now.
    private mutating func checkLiteralFunction(_ syntax: Syntax, _ name: String, _ arguments: [Syntax]) -> TypedExpression? {
        guard arguments.count == 1, case .string(let text) = arguments[0].kind else {
            report("\(name)() takes one quoted text, e.g. \(Self.signature(name))", syntax.range)
            return nil
        }
        switch name {
        case "money":
            guard let money = Money(parsing: text) else {
                report("'\(text)' is not money: write an amount with at most 3 decimals and an ISO 4217 code, e.g. '9.99 USD'", arguments[0].range)
                return nil
            }
            return TypedExpression(.constant(.money(money)), .money, syntax.range)
        case "duration":
            guard let millis = RuleTime.parseDuration(text) else {
                report("'\(text)' is not a duration: use e.g. '36h', '90m', '400d', '1d12h'", arguments[0].range)
                return nil
            }
            return TypedExpression(.constant(.duration(millis)), .duration, syntax.range)
        default:
            guard let millis = RuleTime.parseTimestamp(text) else {
                report("'\(text)' is not a date: use e.g. '2026-12-01' or '2026-12-01T08:00:00Z'", arguments[0].range)
                return nil
            }
            return TypedExpression(.constant(.timestamp(millis)), .timestamp, syntax.range)
        }
    }

    /// The builtin and result type for `name` applied to `types` (the target first for members).
    static func overload(_ name: String, _ types: [RuleType], isMember: Bool) -> (TypedExpression.Builtin, RuleType)? {
        let first = types.first
        var element: RuleType?
        if case .list(let inner)? = first { element = inner }
        switch name {
        case "size":
            guard types.count == 1, let first else { return nil }
            switch first {
            case .list, .string, .map: return (.size, .int)
            default: return nil
            }
        case "count":
            return types.count == 1 && element != nil ? (.size, .int) : nil
        case "sum":
            guard types.count == 1, let element, [.int, .money, .duration].contains(element) else { return nil }
            return (.sum, element)
        case "min", "max":
            let builtin: TypedExpression.Builtin = name == "min" ? .min : .max
            if types.count == 1, let element, element.isOrdered { return (builtin, element) }
            if types.count >= 2, let first, first.isOrdered, types.allSatisfy({ $0 == first }) { return (builtin, first) }
            return nil
        case "days", "hours":
            return types == [.int] ? (name == "days" ? .days : .hours, .duration) : nil
        case "since":
            return types == [.timestamp] ? (.since, .duration) : nil
        case "startsWith", "endsWith", "contains":
            guard isMember, types == [.string, .string], let builtin = TypedExpression.Builtin(rawValue: name) else { return nil }
            return (builtin, .bool)
        default:
            return nil
        }
    }

    static func signature(_ name: String) -> String {
        switch name {
        case "size": "size(list or string) or list.size()"
        case "count": "count(list)"
        case "sum": "sum(list of int, money or duration)"
        case "min", "max": "\(name)(list) or \(name)(a, b, …) of int, string, money, duration or timestamp"
        case "days", "hours": "\(name)(int)"
        case "since": "since(timestamp)"
        case "money": "money('9.99 USD')"
        case "date": "date('2026-12-01')"
        case "timestamp": "timestamp('2026-12-01T00:00:00Z')"
        case "duration": "duration('36h')"
        default: "text.\(name)('…')"
        }
    }
}
