import RuleEngine

/// Offers made per day under the baseline and the candidate: an inline SVG bar chart (two bars a
/// day) drawn on the server, with the same numbers in a table for screen readers and print.
struct ReplayDayChart {
    let days: [ReplayReport.DayCount]

    func render() -> String {
        var html = "<section id=\"offers-by-day\"><h2>Offers by day</h2>"
        guard !days.isEmpty else { return html + "<p>No offer decision in the period.</p></section>" }
        let svg = DayBarChart(
            id: "offers-by-day", title: "Offers made per day: baseline (grey) and candidate (blue)",
            series: [.init(name: "baseline", style: "baseline"), .init(name: "candidate", style: "candidate")],
            days: days.map { .init(label: $0.day, values: [$0.baseline, $0.candidate]) }
        ).svg()
        html += "<p class=\"legend\"><span class=\"swatch-baseline\"></span>baseline"
            + "<span class=\"swatch-candidate\"></span>candidate</p>" + svg
        html += "<details><summary>The numbers</summary><table><thead><tr><th scope=\"col\">Day</th><th scope=\"col\">Baseline</th>"
            + "<th scope=\"col\">Candidate</th></tr></thead><tbody>"
        for (index, day) in days.enumerated() {
            html += "<tr><th scope=\"row\">\(day.day)</th><td>\(ReplayReportPage.number(day.baseline, "/offersByDay/\(index)/baseline"))</td>"
                + "<td>\(ReplayReportPage.number(day.candidate, "/offersByDay/\(index)/candidate"))</td></tr>"
        }
        return html + "</tbody></table></details></section>"
    }
}
