import Foundation

/// The rule engine's text explanation made short enough to read case after case: the summary
/// lines as they are, and of the trace only the entry that decided — the rule that matched or
/// the veto that blocked — with its conditions and values. Every other entry is counted, not
/// shown (the full text is in the decision record, and `verdict demo --full-trace` prints it).
enum DemoExplanation {
    /// `text` condensed; the text itself when it has no `trace:` section.
    static func condensed(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let traceIndex = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "trace:" }) else {
            return text
        }
        let entryIndent = indentation(of: lines[traceIndex]) + 2
        var kept: [String] = []
        var skipped = 0
        var keeping = false
        for line in lines[(traceIndex + 1)...] where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            if indentation(of: line) <= entryIndent {
                keeping = decides(line)
                if keeping { kept.append(line) } else { skipped += 1 }
            } else if keeping {
                kept.append(line)
            }
        }
        var result = Array(lines[..<traceIndex])
        if kept.isEmpty {
            result.append("trace: \(skipped) checks, none decided (full trace: --full-trace)")
        } else {
            result.append("trace (the deciding entry; \(skipped) other checks not shown — full trace: --full-trace):")
            result += kept
        }
        return result.joined(separator: "\n")
    }

    /// Whether a trace entry's first line is a matching rule or a blocking veto.
    private static func decides(_ line: String) -> Bool {
        let entry = line.trimmingCharacters(in: .whitespaces)
        return (entry.hasPrefix("rule ") && entry.hasSuffix(": passed")) || (entry.hasPrefix("veto ") && entry.hasSuffix(": blocked"))
    }

    /// Number of leading spaces.
    private static func indentation(of line: String) -> Int {
        line.prefix { $0 == " " }.count
    }
}
