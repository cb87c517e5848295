import Foundation
import RuleEngine
import Testing

/// `docs/facts.md` is the output of `verdict rules facts`: when a fact changes, the reference
/// product managers read changes with it (regenerate with `swift run verdict rules facts > docs/facts.md`).
@Suite struct FactReferenceDocumentTests {
    @Test func theFactReferenceInDocsIsCurrent() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let file = try String(contentsOf: repository.appendingPathComponent("docs/facts.md"), encoding: .utf8)
        let generated = FactSchema.standard.markdownReference()
        #expect(file == (generated.hasSuffix("\n") ? generated : generated + "\n"),
                "docs/facts.md is out of date: run `swift run verdict rules facts > docs/facts.md`")
    }
}
