import Foundation
import RuleEngine
import Testing

/// The shipped bundle with edits, and the check every diff test makes: each change names a file of
/// the bundle it is about and a line there that shows the item (or the table key) it names.
enum BundleDiffTestSupport {
    /// The shipped `Rules/` files, as `RuleBundleFiles` reads them.
    static func shippedFiles() throws -> [BundleSourceFile] {
        try RuleBundleFiles.read(directory: ShippedBundleTests.rulesDirectory)
    }

    /// The shipped bundle with each `(file, old, new)` edit applied (`old` must occur exactly once),
    /// without its tests when `withTests` is false (a removed rule would be an unknown one there).
    static func shipped(_ edits: [(file: String, old: String, new: String)] = [], withTests: Bool = true) throws -> RuleBundle {
        var files = try shippedFiles().filter { withTests || !$0.name.hasSuffix(".tests.yaml") }
        for edit in edits {
            let index = try #require(files.firstIndex { $0.name == edit.file }, "no \(edit.file)")
            let text = files[index].text
            try #require(text.components(separatedBy: edit.old).count == 2, "\(edit.file) has \(edit.old) not exactly once")
            files[index] = BundleSourceFile(path: files[index].path, text: text.replacingOccurrences(of: edit.old, with: edit.new))
        }
        return try RuleBundle.load(files: files)
    }

    /// The text of the shipped file `name` from the line containing `start` up to (not including)
    /// the line containing `end`: a block to remove or move.
    static func block(in name: String, from start: String, to end: String) throws -> String {
        let text = try #require(try shippedFiles().first { $0.name == name }).text
        let lower = try #require(text.range(of: start)).lowerBound
        let upper = try #require(text.range(of: end, range: lower..<text.endIndex)).lowerBound
        return String(text[lower..<upper])
    }

    /// The 1-based line of `bundle`'s file `name` that contains `text` (the first one).
    static func line(of text: String, in name: String, of bundle: RuleBundle) throws -> Int {
        let file = try #require(bundle.files.first { $0.name == name })
        return try #require(file.lines.firstIndex { $0.contains(text) }, "\(name) has no line with \(text)") + 1
    }

    /// The changes from `baseline` to `candidate`, each checked: a file of the bundle it is about
    /// (the baseline's for a removal) and a line there showing what the change names.
    static func diff(_ baseline: RuleBundle, _ candidate: RuleBundle,
                     sourceLocation: SourceLocation = #_sourceLocation) -> [BundleChange] {
        let changes = BundleDiff.changes(from: baseline, to: candidate)
        expectPositioned(changes, baseline: baseline, candidate: candidate, sourceLocation: sourceLocation)
        return changes
    }

    /// Every change has a file and a line, and that line shows the item: its id or name, or for a
    /// per-key table the key whose entry changed first.
    static func expectPositioned(_ changes: [BundleChange], baseline: RuleBundle, candidate: RuleBundle,
                                 sourceLocation: SourceLocation = #_sourceLocation) {
        for change in changes {
            let bundle = change.change == .removed ? baseline : candidate
            guard let file = bundle.files.first(where: { $0.path == change.file }), change.line > 0 else {
                Issue.record("\(change) is not positioned in a file of its bundle", sourceLocation: sourceLocation)
                continue
            }
            let text = file.line(change.line)
            #expect(text.contains(token(change)), "\(change): line \(change.line) is `\(text)`", sourceLocation: sourceLocation)
        }
    }

    /// What the change's line must show: a table key (`USD:`) when the first detail names one,
    /// else the last word of the item's name (`perOffer lumen-annual-40off` → the offer id).
    private static func token(_ change: BundleChange) -> String {
        if change.kind == "constant", change.change == .changed, let first = change.detail?.components(separatedBy: "; ").first {
            let entry = first.hasPrefix("+ ") ? String(first.dropFirst(2)) : first
            if !entry.hasPrefix("− "), let colon = entry.firstIndex(of: ":"), !entry[..<colon].contains(" ") {
                return String(entry[...colon])
            }
        }
        return change.rule.split(separator: " ").last.map(String.init) ?? change.rule
    }
}
