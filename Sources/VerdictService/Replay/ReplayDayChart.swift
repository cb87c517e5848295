import RuleEngine

/// Offers made per day under the baseline and the candidate: an inline SVG bar chart (two bars a
/// day) drawn on the server, with the same numbers in a table for screen readers and print.
struct ReplayDayChart {
    let days: [ReplayReport.DayCount]

    func render() -> String {
        var html = "<section id=\"offers-by-day\"><h2>Offers by day</h2>"
        guard !days.isEmpty else { return html + "<p>No offer decision in the period.</p></section>" }
        let width = 760.0
        let height = 220.0
        let left = 40.0
        let bottom = 30.0
        let top = 10.0
        let peak = max(1, days.map { max($0.baseline, $0.candidate) }.max() ?? 1)
        let slot = (width - left - 10) / Double(days.count)
        let bar = max(1, slot * 0.4)
        func y(_ value: Int) -> Double { top + (height - top - bottom) * (1 - Double(value) / Double(peak)) }
        var svg = "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"100%\" role=\"img\" aria-labelledby=\"offers-by-day-title\">"
            + "<title id=\"offers-by-day-title\">Offers made per day: baseline (grey) and candidate (blue)</title>"
        // 0, the middle and the peak; a peak of 1 has no whole middle (no second line at 0).
        for tick in Set([0, peak / 2, peak]).sorted() {
            svg += "<line x1=\"\(left)\" x2=\"\(width - 10)\" y1=\"\(y(tick))\" y2=\"\(y(tick))\" stroke=\"currentColor\" stroke-opacity=\"0.15\"/>"
                + "<text x=\"\(left - 6)\" y=\"\(y(tick) + 4)\" text-anchor=\"end\">\(tick)</text>"
        }
        let labelEvery = max(1, days.count / 8)
        for (index, day) in days.enumerated() {
            let x = left + Double(index) * slot + slot * 0.1
            svg += "<rect class=\"bar-baseline\" x=\"\(x)\" y=\"\(y(day.baseline))\" width=\"\(bar)\" height=\"\(y(0) - y(day.baseline))\">"
                + "<title>\(day.day): baseline \(day.baseline)</title></rect>"
                + "<rect class=\"bar-candidate\" x=\"\(x + bar)\" y=\"\(y(day.candidate))\" width=\"\(bar)\" height=\"\(y(0) - y(day.candidate))\">"
                + "<title>\(day.day): candidate \(day.candidate)</title></rect>"
            if index % labelEvery == 0 {
                svg += "<text x=\"\(x + bar)\" y=\"\(height - 10)\" text-anchor=\"middle\">\(day.day.dropFirst(5))</text>"
            }
        }
        svg += "</svg>"
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
