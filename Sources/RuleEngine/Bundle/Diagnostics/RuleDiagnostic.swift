/// A positioned problem found while loading or checking a rule bundle, rendered like a compiler
/// message:
///
/// ```
/// Rules/retention.rules.yaml:46:28: error: unknown value 'AUTO_RENEW_DISABLE' for event.subtype
///    46 |         - event.subtype == AUTO_RENEW_DISABLE
///       |                            ^~~~~~~~~~~~~~~~~~
///       = did you mean AUTO_RENEW_DISABLED?
/// ```
public struct RuleDiagnostic: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Whether the problem refuses the bundle (`error`) or is only reported (`warning`).
    public enum Severity: String, Hashable, Sendable, Codable {
        case error
        case warning
    }

    /// Error or warning.
    public let severity: Severity
    /// The file's path as printed.
    public let file: String
    /// 1-based line.
    public let line: Int
    /// 1-based column (Unicode scalars).
    public let column: Int
    /// How many scalars the caret run underlines (at least 1).
    public let length: Int
    /// What is wrong, in one sentence.
    public let message: String
    /// The text of the offending line, quoted under the message.
    public let sourceLine: String
    /// The replacement the checker suggests ("did you mean …?"), if any.
    public let suggestion: String?
    /// A further hint ("quote the condition"), if any.
    public let help: String?

    /// A diagnostic at `location` quoting `sourceLine`.
    public init(
        _ severity: Severity, at location: BundleLocation, length: Int = 1, message: String,
        sourceLine: String, suggestion: String? = nil, help: String? = nil
    ) {
        self.severity = severity
        self.file = location.file
        self.line = location.line
        self.column = location.column
        self.length = max(1, length)
        self.message = message
        self.sourceLine = sourceLine
        self.suggestion = suggestion
        self.help = help
    }

    /// The position as a `BundleLocation`.
    public var location: BundleLocation { BundleLocation(file: file, line: line, column: column) }

    /// The caret run under the source line: spaces (tabs kept) up to the column, then `^~~~`.
    public var caret: String {
        var prefix = ""
        for (index, scalar) in sourceLine.unicodeScalars.enumerated() where index < column - 1 {
            prefix.unicodeScalars.append(scalar == "\t" ? "\t" : " ")
        }
        let missing = column - 1 - prefix.unicodeScalars.count
        if missing > 0 { prefix += String(repeating: " ", count: missing) }
        return prefix + "^" + String(repeating: "~", count: length - 1)
    }

    /// The message with its source line, caret and notes, as printed by `verdict rules check`.
    public func render() -> String {
        let number = String(line)
        let width = max(number.count + 3, 5)
        let gutter = String(repeating: " ", count: width - number.count) + number
        let blank = String(repeating: " ", count: width)
        var text = "\(file):\(line):\(column): \(severity.rawValue): \(message)\n"
        text += "\(gutter) | \(sourceLine)\n"
        text += "\(blank) | \(caret)"
        if let suggestion { text += "\n\(blank) = did you mean \(suggestion)?" }
        if let help { text += "\n\(blank) = help: \(help)" }
        return text
    }

    /// `render()`.
    public var description: String { render() }
}

extension [RuleDiagnostic] {
    /// Whether any entry is an error (warnings alone do not refuse a bundle).
    public var containsErrors: Bool { contains { $0.severity == .error } }

    /// The entries sorted by file, line and column, errors before warnings at the same place.
    public func sortedByPosition() -> [RuleDiagnostic] {
        sorted { lhs, rhs in
            (lhs.file, lhs.line, lhs.column, lhs.severity == .error ? 0 : 1)
                < (rhs.file, rhs.line, rhs.column, rhs.severity == .error ? 0 : 1)
        }
    }
}
