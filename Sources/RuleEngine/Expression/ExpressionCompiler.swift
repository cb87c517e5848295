/// Parses, type-checks and compiles Rules-CEL expressions.
public enum ExpressionCompiler {
    /// Longest expression accepted, in Unicode scalars.
    public static let maximumLength = 300
    /// Deepest nesting of list macros (`exists`, `all`, `exists_one`, `filter`, `map`).
    public static let maximumMacroNesting = 2

    /// Compiles `source` against `environment`; throws every diagnostic found (at least one).
    public static func compile(_ source: String, environment: CompileEnvironment) throws(ExpressionDiagnostics) -> CompiledExpression {
        let length = source.unicodeScalars.count
        if length > maximumLength {
            throw ExpressionDiagnostics([ExpressionDiagnostic(
                "expression is \(length) characters long; the limit is \(maximumLength) (move parts into segments)",
                at: SourceRange(start: maximumLength, end: length))])
        }
        let syntax: Syntax
        do {
            syntax = try Parser.parse(source)
        } catch {
            throw ExpressionDiagnostics([error])
        }
        var checker = Checker(environment: environment)
        guard let root = checker.check(syntax), checker.diagnostics.isEmpty else {
            throw ExpressionDiagnostics(checker.diagnostics)
        }
        return CompiledExpression(source: source, root: root, guaranteedFacts: GuardAnalysis.whenTrue(syntax),
                                  referencedSegments: checker.referencedSegments,
                                  referencedConstants: checker.referencedConstants,
                                  referencedFacts: checker.referencedFacts)
    }

    /// Compiles a condition: like ``compile(_:environment:)`` but the type must be `bool`.
    public static func compileCondition(_ source: String, environment: CompileEnvironment) throws(ExpressionDiagnostics) -> CompiledExpression {
        let compiled = try compile(source, environment: environment)
        guard compiled.type == .bool else {
            throw ExpressionDiagnostics([ExpressionDiagnostic(
                "a condition must be true or false, but this is a \(compiled.type)",
                at: SourceRange(start: 0, end: source.unicodeScalars.count))])
        }
        return compiled
    }

    /// Folds a `constants:` entry to its value (facts, `now` and segments are not available).
    /// An evaluation error (e.g. an overflow) is reported as a diagnostic over the whole text.
    public static func foldConstant(_ source: String, environment: CompileEnvironment) throws(ExpressionDiagnostics) -> RuleConstant {
        var constantEnvironment = environment
        constantEnvironment.allowsFacts = false
        let compiled = try compile(source, environment: constantEnvironment)
        switch compiled.evaluate(.empty) {
        case .value(let value): return RuleConstant(type: compiled.type, value: value)
        case .error(let error):
            throw ExpressionDiagnostics([ExpressionDiagnostic(
                error.message, at: error.range ?? SourceRange(start: 0, end: source.unicodeScalars.count))])
        }
    }
}
