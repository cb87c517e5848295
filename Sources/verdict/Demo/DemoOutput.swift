import Foundation

/// Where `verdict demo` writes what it shows, and the few layouts it uses: a banner per part, a
/// header per case, aligned `key  value` lines and indented blocks of text.
///
/// Writes go straight to the file handle (no buffering), so the output appears at once even when
/// standard output is a pipe and the command keeps serving afterwards.
struct DemoOutput: Sendable {
    /// Receives each piece of text, newlines included.
    let write: @Sendable (String) -> Void

    /// Width of the key column of ``field(_:_:)`` lines.
    static let keyWidth = 17
    /// Indentation of a case's lines.
    static let caseIndent = "    "

    /// Standard output.
    static let standardOutput = DemoOutput { FileHandle.standardOutput.write(Data($0.utf8)) }

    /// Discards everything (for callers that only want the ``DemoSummary``).
    static let silent = DemoOutput { _ in }

    /// One line as is.
    func line(_ text: String = "") {
        write(text + "\n")
    }

    /// A part of the demo: a blank line, the title and a rule under it.
    func banner(_ title: String) {
        line()
        line(title)
        line(String(repeating: "═", count: max(title.count, 60)))
    }

    /// A case: a blank line and `▸ title`.
    func header(_ title: String) {
        line()
        line("  ▸ " + title)
    }

    /// `key  value`, the key padded to ``keyWidth``; the value's later lines are aligned under
    /// its first one.
    func field(_ key: String, _ value: String, indent: String = DemoOutput.caseIndent) {
        let padded = key.padding(toLength: max(Self.keyWidth, key.count + 1), withPad: " ", startingAt: 0)
        let continuation = indent + String(repeating: " ", count: padded.count)
        let lines = value.split(separator: "\n", omittingEmptySubsequences: false)
        line(indent + padded + (lines.first.map(String.init) ?? ""))
        for more in lines.dropFirst() { line(continuation + more) }
    }

    /// `key` on its own line, then `text` indented under it (blank lines of `text` kept).
    func block(_ key: String, _ text: String, indent: String = DemoOutput.caseIndent) {
        line(indent + key)
        let body = text.trimmingCharacters(in: .whitespacesAndNewlines)
        for textLine in body.split(separator: "\n", omittingEmptySubsequences: false) {
            line(textLine.isEmpty ? "" : indent + "    " + textLine)
        }
    }
}
