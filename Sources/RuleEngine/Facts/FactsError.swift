/// Why a facts document does not fit the ``FactSchema``, naming the path
/// (`customer.transactions[3].price`) so a fixture author finds the bad value.
public struct FactsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The dotted path of the offending value (empty for the document itself).
    public var path: String
    /// What is wrong, e.g. `expected money such as '9.99 USD', got 'abc'`.
    public var message: String
    /// "did you mean …?" for a misspelled field or enum value.
    public var suggestion: String?

    public init(path: String, message: String, suggestion: String? = nil) {
        self.path = path
        self.message = message
        self.suggestion = suggestion
    }

    public var description: String {
        (path.isEmpty ? "" : path + ": ") + message + (suggestion.map { " (\($0))" } ?? "")
    }
}
