extension DiagnosticLog {
    /// Reports the expression compiler's diagnostics at their place in the file: the scalar's
    /// position plus the offset inside the expression (quotes and escapes accounted for).
    func report(_ diagnostics: ExpressionDiagnostics, in expression: PositionedExpression) {
        for diagnostic in diagnostics.diagnostics {
            let location = expression.location(ofOffset: diagnostic.range.start)
            let length = expression.length(from: diagnostic.range.start, to: diagnostic.range.end)
            var help: String?
            if diagnostic.replacement == nil, let suggestion = diagnostic.suggestion { help = suggestion }
            report(.error, diagnostic.message, at: location, length: length, suggestion: diagnostic.replacement, help: help)
        }
    }

    /// Compiles `expression` in `environment`, reporting failures; `condition` requires `bool`.
    func compile(
        _ expression: PositionedExpression, _ environment: CompileEnvironment, condition: Bool = true
    ) -> CompiledCondition? {
        do {
            let compiled = condition
                ? try ExpressionCompiler.compileCondition(expression.text, environment: environment)
                : try ExpressionCompiler.compile(expression.text, environment: environment)
            return CompiledCondition(compiled, at: expression)
        } catch {
            report(error, in: expression)
            return nil
        }
    }

    /// Compiles `expression` and requires its type to be `type` (optional types refused too).
    func compile(_ expression: PositionedExpression, _ environment: CompileEnvironment, as type: RuleType, what: String)
        -> CompiledCondition?
    {
        guard let compiled = compile(expression, environment, condition: false) else { return nil }
        guard compiled.expression.type == type else {
            report(
                .error, "\(what) must be \(type), but this is \(compiled.expression.type)", at: expression.start,
                length: expression.length(from: 0, to: expression.text.unicodeScalars.count))
            return nil
        }
        return compiled
    }
}
