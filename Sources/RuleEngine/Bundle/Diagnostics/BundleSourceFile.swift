/// One file of a rule bundle: its path relative to the bundle folder (as printed in diagnostics)
/// and its text. Lines are split once so diagnostics can quote them.
public struct BundleSourceFile: Hashable, Sendable {
    /// The path printed in diagnostics, e.g. `Rules/retention.rules.yaml`.
    public let path: String
    /// The file's name inside the bundle folder (`retention.rules.yaml`): what the bundle hash and
    /// the tests' `rules:` key use, so the hash does not depend on where the folder lives.
    public let name: String
    /// The file's text, exactly as read (UTF-8).
    public let text: String
    /// The file's lines without their line terminators.
    public let lines: [Substring]

    /// A file printed as `path` whose content is `text`; its `name` is the last path component.
    public init(path: String, text: String) {
        self.path = path
        self.name = path.split(separator: "/").last.map(String.init) ?? path
        self.text = text
        self.lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? line.dropLast() : line
        }
    }

    /// The text of 1-based `line`, or an empty string when out of range.
    public func line(_ line: Int) -> String {
        guard line >= 1, line <= lines.count else { return "" }
        return String(lines[line - 1])
    }
}
