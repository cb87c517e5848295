/// Builds the expression environment of a bundle from its rule files: declared customer
/// attributes (→ `FactSchema`), constants folded in declaration order (a constant may use earlier
/// ones), and segments compiled in declaration order (a segment may use earlier ones). Names are
/// bundle-wide; declaring one twice is an error.
struct BundleEnvironmentBuilder {
    /// Attribute type names a rule file may declare; `?` after one makes it optional.
    static let attributeTypes: [String: RuleType] = [
        "bool": .bool, "int": .int, "string": .string, "money": .money, "duration": .duration, "timestamp": .timestamp,
        "list<string>": .list(.string), "list<int>": .list(.int),
    ]

    let log: DiagnosticLog

    /// The finished environment plus what the lints need.
    struct Result {
        var environment: CompileEnvironment
        /// Constants with the constants their expressions use, in declaration order.
        var constants: [(syntax: ConstantSyntax, references: Set<String>)]
        /// Segments with their declaration, in order.
        var segments: [(syntax: NamedExpressionSyntax, compiled: CompiledExpression)]
    }

    func build(_ files: [RuleFileSyntax]) -> Result {
        let schema = FactSchema(attributes: attributes(files.flatMap(\.attributes)))
        var result = Result(environment: CompileEnvironment(schema: schema), constants: [], segments: [])
        var seen: Set<String> = []
        for constant in files.flatMap(\.constants) {
            guard seen.insert(constant.name).inserted else {
                log.error("constant '\(constant.name)' is declared twice", at: constant.keyNode)
                continue
            }
            let references = fold(constant, schema: schema, into: &result.environment)
            if result.environment.constants[constant.name] == nil {
                result.environment.failedConstants.insert(constant.name)
            }
            result.constants.append((constant, references))
        }
        seen = []
        for segment in files.flatMap(\.segments) {
            guard seen.insert(segment.name).inserted else {
                log.error("segment '\(segment.name)' is declared twice", at: segment.keyNode)
                continue
            }
            guard let compiled = log.compile(segment.expression, result.environment) else {
                result.environment.failedSegments.insert(segment.name)
                continue
            }
            result.environment.segments[segment.name] = compiled.expression
            result.segments.append((segment, compiled.expression))
        }
        return result
    }

    private func attributes(_ declarations: [AttributeSyntax]) -> [RuleField] {
        var fields: [RuleField] = []
        for declaration in declarations {
            guard !fields.contains(where: { $0.name == declaration.name }) else {
                log.error("attribute '\(declaration.name)' is declared twice", at: declaration.keyNode)
                continue
            }
            let optional = declaration.typeName.hasSuffix("?")
            let base = optional ? String(declaration.typeName.dropLast()) : declaration.typeName
            guard let type = Self.attributeTypes[base] else {
                let names = Self.attributeTypes.keys.sorted()
                log.error(
                    "unknown attribute type '\(declaration.typeName)'", at: declaration.typeNode,
                    suggestion: DidYouMean.suggestion(for: base, among: names),
                    help: "types: \(names.joined(separator: ", ")); add ? for an attribute the app may omit")
                continue
            }
            fields.append(RuleField(declaration.name, optional ? .optional(type) : type, "Declared in the rule file."))
        }
        return fields
    }

    /// Folds a constant (or each entry of a per-currency table), adds it to the environment and
    /// returns the constants it uses (empty when it failed).
    private func fold(_ constant: ConstantSyntax, schema: FactSchema, into environment: inout CompileEnvironment)
        -> Set<String>
    {
        let constantEnvironment = CompileEnvironment.forConstants(schema: schema, constants: environment.constants)
        switch constant.value {
        case .expression(let expression):
            guard let compiled = log.compile(expression, constantEnvironment, condition: false),
                let value = value(of: compiled, expression)
            else { return [] }
            environment.constants[constant.name] = RuleConstant(type: compiled.expression.type, value: value)
            return compiled.expression.referencedConstants
        case .table(let entries):
            var values: [String: RuleValue] = [:]
            var entryType: RuleType?
            var references: Set<String> = []
            for entry in entries {
                guard let compiled = log.compile(entry.value, constantEnvironment, condition: false),
                    let value = value(of: compiled, entry.value)
                else { return references }
                if let entryType, entryType != compiled.expression.type {
                    log.report(
                        .error, "every entry of constants.\(constant.name) must be \(entryType), but this is \(compiled.expression.type)",
                        at: entry.value.start, length: entry.value.text.unicodeScalars.count)
                    return references
                }
                entryType = compiled.expression.type
                values[entry.key] = value
                references.formUnion(compiled.expression.referencedConstants)
            }
            guard let entryType else {
                log.error("constants.\(constant.name) is an empty table", at: constant.keyNode)
                return references
            }
            environment.constants[constant.name] = RuleConstant(type: .map(entryType), value: .map(values))
            return references
        }
    }

    private func value(of compiled: CompiledCondition, _ expression: PositionedExpression) -> RuleValue? {
        switch compiled.expression.evaluate(.empty) {
        case .value(let value): return value
        case .error(let error):
            let range = error.range ?? SourceRange(start: 0, end: expression.text.unicodeScalars.count)
            log.report(
                .error, error.message, at: expression.location(ofOffset: range.start),
                length: expression.length(from: range.start, to: range.end))
            return nil
        }
    }
}
