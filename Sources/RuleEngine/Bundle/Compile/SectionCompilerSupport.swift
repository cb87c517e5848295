/// What the section compilers share: the environment, the catalog, the log, and the compilation
/// of the pieces every section has (conditions, vetoes, windows, units).
struct SectionCompilerSupport {
    let log: DiagnosticLog
    let environment: CompileEnvironment
    let catalog: OfferCatalog
    let analysis: ConditionAnalysis

    /// Compiles a `when` list in order: each entry may rely on the `has()` guards of the entries
    /// before it (the list is an `&&` chain). Nil when any entry fails.
    func conditions(_ expressions: [PositionedExpression]) -> [CompiledCondition]? {
        var environment = environment
        var compiled: [CompiledCondition] = []
        var failed = false
        for expression in expressions {
            guard let condition = log.compile(expression, environment) else {
                failed = true
                continue
            }
            environment.guardedFacts.formUnion(condition.expression.guaranteedFacts)
            compiled.append(condition)
        }
        return failed ? nil : compiled
    }

    /// Compiles the vetoes of a section.
    func vetoes(_ syntax: [VetoSyntax]) -> [CompiledVeto] {
        syntax.compactMap { veto in
            log.compile(veto.condition, environment).map {
                CompiledVeto(id: veto.id, location: veto.idNode.location, condition: $0)
            }
        }
    }

    /// An `active` window; `until` before `from` is an error.
    func window(_ syntax: ActiveWindowSyntax?) -> ActiveWindow? {
        guard let syntax else { return nil }
        if let from = syntax.from, let until = syntax.until, until < from, let node = syntax.untilNode {
            log.error(
                "active.until (\(RuleTime.renderTimestamp(until))) is before active.from (\(RuleTime.renderTimestamp(from)))",
                at: node)
        }
        return ActiveWindow(from: syntax.from, until: syntax.until)
    }

    /// A bucketing unit: a string expression. A bare field name of `subscription`
    /// (`originalTransactionId`) is shorthand for `subscription.<name>`.
    func unit(_ expression: PositionedExpression, what: String) -> CompiledCondition? {
        let text = expression.text
        if RuleFileReader.isIdentifier(text), environment.schema.type(at: "subscription." + text) == .string,
            let compiled = try? ExpressionCompiler.compile("subscription." + text, environment: environment)
        {
            return CompiledCondition(compiled, at: expression)
        }
        return log.compile(expression, environment, as: .string, what: what)
    }

    /// The reference of a rule whose `id:` is `node`.
    func reference(_ id: String, _ node: YAMLNode) -> RuleReference {
        RuleReference(id: id, file: node.location.file, line: node.location.line)
    }

    /// The bundle's `holdout:` compiled (it applies to the offers and retention sections).
    func holdout(_ syntax: HoldoutSyntax?) -> CompiledHoldout? {
        guard let syntax, let unit = unit(syntax.unit, what: "holdout.unit") else { return nil }
        return CompiledHoldout(basisPoints: syntax.basisPoints, unit: unit, salt: syntax.salt, location: syntax.location)
    }
}
