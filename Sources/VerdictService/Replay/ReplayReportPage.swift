import RuleEngine

/// The replay report as one self-contained HTML page: no external assets, inline CSS and an
/// inline SVG chart, light and dark, readable printed. Every number taken from the JSON report
/// carries `data-json="<JSON pointer>"` naming where it is in the JSON, so a test can check
/// that the page and the JSON agree.
public enum ReplayReportPage {
    /// The page for `report`.
    public static func render(_ report: ReplayReport) -> String {
        var page = HTMLPage(title: "Replay report")
        page.append("<header><h1>Replay report</h1>")
        page.append("<p>" + bundleLine(report) + "</p>")
        page.append("<p>Decisions made \(e(report.since ?? "since the start")) to \(e(report.until ?? "now")) · sections "
            + e(report.sections.map(\.rawValue).joined(separator: ", "))
            + (report.sample.map { " · a sample of at most \($0) per section" } ?? "") + "</p></header>")
        page.append(totalsSection(report))
        // What changed for customers, with what changed in the rules beside it.
        page.append("<div class=\"beside\"><div class=\"transitions\">")
        for section in report.sections { page.append(ReplayTransitionMatrix(report: report, section: section).render()) }
        page.append("</div>" + ReplayDiffList(diff: report.diff).render() + "</div>")
        page.append(outcomesSection(report))
        if report.sections.contains(.offers) { page.append(ReplayDayChart(days: report.offersByDay).render()) }
        page.append(rulesSection(report))
        page.append(errorsSection(report))
        page.append(ReplayExamples(report: report).render())
        return page.finish()
    }

    static func e(_ text: String) -> String { HTMLText.escape(text) }

    /// A number with the JSON pointer it comes from.
    static func number(_ value: Int, _ pointer: String) -> String {
        "<span data-json=\"\(e(pointer))\">\(value)</span>"
    }

    private static func bundleLine(_ report: ReplayReport) -> String {
        let candidate = "candidate <code>\(e(report.candidate.source ?? "bundle"))</code> <code>\(e(report.candidate.hash ?? ""))</code>"
        let baseline = report.baseline.kind == "recorded" ? "what was decided (recorded)"
            : "<code>\(e(report.baseline.source ?? "bundle"))</code> <code>\(e(report.baseline.hash ?? ""))</code>"
        return candidate + " against " + baseline
    }

    private static func totalsSection(_ report: ReplayReport) -> String {
        func card(_ label: String, _ value: Int, _ pointer: String) -> String {
            "<div class=\"card\"><div class=\"figure\">\(number(value, pointer))</div><div>\(label)</div></div>"
        }
        var html = "<section id=\"totals\"><h2>Totals</h2><div class=\"cards\">"
        html += card("replayed", report.totals.replayed, "/totals/replayed")
        html += card("changed", report.totals.changed, "/totals/changed")
        html += card("unchanged", report.totals.unchanged, "/totals/unchanged")
        html += card("with errors", report.totals.errors, "/totals/errors")
        html += "</div><table><thead><tr><th scope=\"col\">Section</th><th scope=\"col\">Replayed</th><th scope=\"col\">Changed</th>"
            + "<th scope=\"col\">Unchanged</th><th scope=\"col\">Errors</th></tr></thead><tbody>"
        for (index, entry) in report.sectionTotals.enumerated() {
            let base = "/sectionTotals/\(index)/totals"
            html += "<tr><th scope=\"row\">\(entry.section.rawValue)</th><td>\(number(entry.totals.replayed, base + "/replayed"))</td>"
                + "<td>\(number(entry.totals.changed, base + "/changed"))</td><td>\(number(entry.totals.unchanged, base + "/unchanged"))</td>"
                + "<td>\(number(entry.totals.errors, base + "/errors"))</td></tr>"
        }
        return html + "</tbody></table></section>"
    }

    private static func outcomesSection(_ report: ReplayReport) -> String {
        var html = "<section id=\"outcomes\"><h2>What happened afterwards</h2>"
        guard !report.outcomes.isEmpty else {
            return html + "<p>No replayed decision has a known outcome yet (offer redeemed or retained; refund granted, declined or reversed).</p></section>"
        }
        html += "<p>Replayed decisions whose outcome Apple or the customer already gave, by transition. Changed rows first.</p>"
        html += "<table><thead><tr><th scope=\"col\">Section</th><th scope=\"col\">Baseline</th><th scope=\"col\">Candidate</th>"
            + "<th scope=\"col\">Then</th><th scope=\"col\">Decisions</th></tr></thead><tbody>"
        let ordered = report.outcomes.enumerated().sorted { ($0.element.changed ? 0 : 1, $0.offset) < ($1.element.changed ? 0 : 1, $1.offset) }
        for (index, outcome) in ordered {
            let from = ReplayReport.verdictText(outcome.from, outcome.fromReason)
            let to = ReplayReport.verdictText(outcome.to, outcome.toReason)
            html += "<tr class=\"\(outcome.changed ? "changed" : "same")\"><td>\(outcome.section.rawValue)</td><td>\(e(from))</td>"
                + "<td>\(e(to))</td><td>\(e(outcome.outcome))</td><td>\(number(outcome.count, "/outcomes/\(index)/count"))</td></tr>"
        }
        return html + "</tbody></table></section>"
    }

    private static func rulesSection(_ report: ReplayReport) -> String {
        var html = "<section id=\"rules\"><h2>Rules</h2><table><thead><tr><th scope=\"col\">Bundle</th><th scope=\"col\">Section</th>"
            + "<th scope=\"col\">Rule</th><th scope=\"col\">Where</th><th scope=\"col\">Matches</th><th scope=\"col\">Offers / answers</th>"
            + "<th scope=\"col\">Held out</th><th scope=\"col\">Capped</th><th scope=\"col\">Shadow</th></tr></thead><tbody>"
        for (index, rule) in report.rules.enumerated() {
            let base = "/rules/\(index)"
            let position = rule.line > 0 ? "\(rule.file):\(rule.line)" : ""
            html += "<tr><td>\(rule.bundle)</td><td>\(rule.section.rawValue)</td><td><code>\(e(rule.rule))</code>"
                + (rule.kind == "veto" ? " (veto)" : "") + "</td><td><code>\(e(position))</code></td>"
                + "<td>\(number(rule.matches, base + "/matches"))</td><td>\(number(rule.offers, base + "/offers"))</td>"
                + "<td>\(number(rule.heldOut, base + "/heldOut"))</td><td>\(number(rule.capped, base + "/capped"))</td>"
                + "<td>\(number(rule.shadow, base + "/shadow"))</td></tr>"
        }
        return html + "</tbody></table></section>"
    }

    private static func errorsSection(_ report: ReplayReport) -> String {
        guard !report.errors.isEmpty else { return "" }
        var html = "<section id=\"errors\"><h2>What the candidate could not evaluate</h2><table><thead><tr>"
            + "<th scope=\"col\">Rule</th><th scope=\"col\">Where</th><th scope=\"col\">Message</th><th scope=\"col\">Decisions</th></tr></thead><tbody>"
        for (index, error) in report.errors.enumerated() {
            let position = error.line > 0 ? "\(error.file):\(error.line)" : ""
            html += "<tr><td><code>\(e(error.rule))</code></td><td><code>\(e(position))</code></td><td>\(e(error.message))</td>"
                + "<td>\(number(error.count, "/errors/\(index)/count"))</td></tr>"
        }
        return html + "</tbody></table></section>"
    }
}
