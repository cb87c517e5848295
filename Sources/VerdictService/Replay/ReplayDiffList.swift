import RuleEngine

/// "What changed in the rules": the report's `diff` as a list, one entry per change with its
/// kind, name, `file:line` and old → new, shown beside the transition matrices so a reader sees
/// the edits next to what they did to customers.
struct ReplayDiffList {
    let diff: [BundleChange]

    func render() -> String {
        var html = "<aside id=\"diff\" aria-labelledby=\"diff-title\"><h2 id=\"diff-title\">What changed in the rules</h2>"
        guard !diff.isEmpty else {
            return html + "<p>Nothing that can change a decision: the bundles differ at most in descriptions, comments, "
                + "tests and layout.</p></aside>"
        }
        html += "<p class=\"muted\">\(diff.count) \(diff.count == 1 ? "change" : "changes") that can change a decision, "
            + "each where the candidate has it (a removal: where the baseline had it).</p><ol class=\"changes\">"
        for change in diff {
            let scope = change.section.map(\.rawValue) ?? "all sections"
            html += "<li class=\"change change-\(change.change.rawValue)\">"
                + "<div><span class=\"tag\">\(change.change.rawValue)</span> \(e(change.kind)) <code>\(e(change.rule))</code> "
                + "<span class=\"muted\">· \(e(scope))</span></div>"
                + "<div class=\"where\"><code>\(e(change.position))</code></div>"
                + (change.detail.map { "<div class=\"detail\">\(e($0))</div>" } ?? "") + "</li>"
        }
        return html + "</ol></aside>"
    }

    private func e(_ text: String) -> String { HTMLText.escape(text) }
}
