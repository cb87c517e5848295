/// Collects the diagnostics of one bundle load. Knows the bundle's files so every diagnostic
/// quotes its source line. Used by one load at a time (not shared across threads).
final class DiagnosticLog {
    private var files: [String: BundleSourceFile] = [:]
    /// Everything reported so far, in report order.
    private(set) var diagnostics: [RuleDiagnostic] = []

    init(files: [BundleSourceFile] = []) {
        for file in files { self.files[file.path] = file }
    }

    /// Makes `file`'s lines available for quoting.
    func register(_ file: BundleSourceFile) { files[file.path] = file }

    /// Whether any error was reported.
    var hasErrors: Bool { diagnostics.containsErrors }

    /// The number of errors reported so far (to tell whether a step added any).
    var errorCount: Int { diagnostics.count { $0.severity == .error } }

    /// The text of `line` in `file`.
    func sourceLine(_ file: String, _ line: Int) -> String { files[file]?.line(line) ?? "" }

    /// Appends an already-built diagnostic.
    func append(_ diagnostic: RuleDiagnostic) { diagnostics.append(diagnostic) }

    /// Reports a problem at `location`.
    func report(
        _ severity: RuleDiagnostic.Severity, _ message: String, at location: BundleLocation, length: Int = 1,
        suggestion: String? = nil, help: String? = nil
    ) {
        let line = sourceLine(location.file, location.line)
        let rest = line.unicodeScalars.count - location.column + 1
        diagnostics.append(
            RuleDiagnostic(
                severity, at: location, length: rest > 0 ? min(length, rest) : length, message: message,
                sourceLine: line, suggestion: suggestion, help: help))
    }

    /// Reports an error underlining `node`.
    func error(_ message: String, at node: YAMLNode, suggestion: String? = nil, help: String? = nil) {
        report(.error, message, at: node.location, length: node.underlineLength, suggestion: suggestion, help: help)
    }

    /// Reports a warning underlining `node`.
    func warning(_ message: String, at node: YAMLNode, suggestion: String? = nil, help: String? = nil) {
        report(.warning, message, at: node.location, length: node.underlineLength, suggestion: suggestion, help: help)
    }
}
