/// A problem found while parsing or checking an expression, positioned in its text.
public struct ExpressionDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, e.g. `unknown value 'AUTO_RENEW_DISABLE' for event.subtype`.
    public var message: String
    /// Where, in Unicode scalars of the expression text.
    public var range: SourceRange
    /// The full hint line, e.g. `did you mean AUTO_RENEW_DISABLED?` (nil when there is none).
    public var suggestion: String?
    /// The bare replacement the suggestion proposes (`AUTO_RENEW_DISABLED`), for quick fixes.
    public var replacement: String?

    public init(_ message: String, at range: SourceRange, suggestion: String? = nil, replacement: String? = nil) {
        self.message = message
        self.range = range
        self.suggestion = suggestion
        self.replacement = replacement
    }

    /// A diagnostic whose hint is "did you mean `replacement`?" when a replacement was found.
    static func unknown(_ message: String, at range: SourceRange, didYouMean replacement: String?) -> Self {
        Self(message, at: range, suggestion: replacement.map { "did you mean \($0)?" }, replacement: replacement)
    }

    public var description: String {
        "\(range.start): error: \(message)" + (suggestion.map { " (\($0))" } ?? "")
    }
}

/// The diagnostics of one expression, thrown by ``ExpressionCompiler`` (never empty).
///
/// Deviation from the contract's `throws([ExpressionDiagnostic])`: Swift's typed throws need an
/// `Error` type and `Array` is not one, so the list is wrapped.
public struct ExpressionDiagnostics: Error, Sendable, Hashable {
    public var diagnostics: [ExpressionDiagnostic]
    public init(_ diagnostics: [ExpressionDiagnostic]) { self.diagnostics = diagnostics }
}

/// Why an expression could not produce a value for these facts: a missing fact, a currency
/// mismatch, an overflow, an empty `min`/`max`, a missing table entry.
public struct EvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// E.g. `usage.consumptionPercentage is missing`, `cannot compare 9.99 USD with 8 EUR`.
    public var message: String
    /// The sub-expression that failed, when known.
    public var range: SourceRange?

    public init(_ message: String, at range: SourceRange? = nil) {
        self.message = message
        self.range = range
    }

    public var description: String { message }
}

/// The outcome of evaluating an expression: a value, or why there is none.
public enum RuleResult: Sendable, Hashable {
    case value(RuleValue)
    case error(EvaluationError)

    /// True only for the value `true` (an error or `false` is not true).
    public var isTrue: Bool { self == .value(.bool(true)) }

    /// The value, if any.
    public var value: RuleValue? {
        if case .value(let value) = self { return value }
        return nil
    }

    /// The error, if any.
    public var error: EvaluationError? {
        if case .error(let error) = self { return error }
        return nil
    }
}
