import RuleEngine

/// One section's transition matrix: baseline verdicts as rows, candidate verdicts as columns,
/// the number of decisions in each cell (changed cells highlighted, each linking to its examples).
struct ReplayTransitionMatrix {
    let report: ReplayReport
    let section: Decision.Section

    func render() -> String {
        let cells = report.transitions.enumerated().filter { $0.element.section == section }
        let title = switch section {
        case .offers: "Offers: baseline → candidate"
        case .refunds: "Refund answers: baseline → candidate"
        case .retention: "Cancel-page answers: baseline → candidate"
        }
        var html = "<section id=\"matrix-\(section.rawValue)\"><h2>\(title)</h2>"
        guard !cells.isEmpty else { return html + "<p>No \(section.rawValue) decision in the period.</p></section>" }
        let rows = ordered(cells.map { label($0.element.from, $0.element.fromReason) })
        let columns = ordered(cells.map { label($0.element.to, $0.element.toReason) })
        // A note above the table rather than a caption: a caption is as wide as the table, and
        // a narrow matrix wrapped it into a centred column of short lines.
        let note = "matrix-\(section.rawValue)-note"
        html += "<p class=\"muted\" id=\"\(note)\">Rows: what the baseline decided. Columns: what the candidate would have decided. "
            + "Highlighted cells changed.</p><table class=\"matrix\" aria-describedby=\"\(note)\"><thead><tr>"
            + "<th scope=\"col\">baseline ↓ / candidate →</th>"
        for column in columns { html += "<th scope=\"col\">\(ReplayReportPage.e(column))</th>" }
        html += "</tr></thead><tbody>"
        for row in rows {
            html += "<tr><th scope=\"row\">\(ReplayReportPage.e(row))</th>"
            for column in columns {
                if let (index, transition) = cells.first(where: {
                    label($0.element.from, $0.element.fromReason) == row && label($0.element.to, $0.element.toReason) == column
                }) {
                    let count = ReplayReportPage.number(transition.count, "/transitions/\(index)/count")
                    let anchor = transition.examples.isEmpty ? count : "<a href=\"#transition-\(index)\">\(count)</a>"
                    html += "<td class=\"\(transition.changed ? "changed" : "same")\">\(anchor)</td>"
                } else {
                    html += "<td class=\"muted\">·</td>"
                }
            }
            html += "</tr>"
        }
        return html + "</tbody></table></section>"
    }

    /// `offer-id`, `DECLINE`, `none (heldOut)`.
    private func label(_ value: String, _ reason: ReplayVerdict.Reason?) -> String {
        ReplayReport.verdictText(value, reason)
    }

    /// Distinct labels, values first, then the `none (…)` ones.
    private func ordered(_ labels: [String]) -> [String] {
        var seen: Set<String> = []
        let unique = labels.filter { seen.insert($0).inserted }
        return unique.filter { !$0.hasPrefix("none") }.sorted() + unique.filter { $0.hasPrefix("none") }.sorted()
    }
}
