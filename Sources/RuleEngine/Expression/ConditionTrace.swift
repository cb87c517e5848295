/// The explanation of one evaluated expression: its text, its value (or error), and the values
/// of its operands — each non-literal side of a comparison, `in` or arithmetic, and each boolean
/// leaf (fact, segment, macro, `has`) — so a PM can see *why* it was true or false.
public struct ConditionTrace: Sendable, Hashable {
    /// One operand: its text in the expression and its value as a PM reads it.
    public struct Operand: Sendable, Hashable {
        public let text: String
        public let range: SourceRange
        /// The rendered value (`59.99 USD`), or `error: …`, or `not evaluated` when `&&`/`||`
        /// decided without it.
        public let value: String
        /// The raw outcome; nil when not evaluated.
        public let result: RuleResult?

        public init(text: String, range: SourceRange, value: String, result: RuleResult?) {
            self.text = text
            self.range = range
            self.value = value
            self.result = result
        }
    }

    public let source: String
    public let result: RuleResult
    /// The rendered value (`true`, `412d`) or `error: <message>`.
    public let value: String
    public let operands: [Operand]

    public init(source: String, result: RuleResult, value: String, operands: [Operand]) {
        self.source = source
        self.result = result
        self.value = value
        self.operands = operands
    }
}
