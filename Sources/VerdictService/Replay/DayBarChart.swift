/// A bar chart of counts per day drawn on the server as inline SVG (one bar per series a day),
/// for the replay report and the console. Series are coloured by CSS class (`bar-<series>`), so
/// the page's stylesheet sets light and dark colours; every bar has a tooltip with its number,
/// and pages give the same numbers in a table for screen readers and print.
struct DayBarChart {
    struct Series {
        /// The name in tooltips ("baseline", "offers made").
        var name: String
        /// The CSS class suffix: bars are `bar-<style>`.
        var style: String
    }

    struct Day {
        /// `YYYY-MM-DD`.
        var label: String
        /// One value per series.
        var values: [Int]
    }

    /// The element id its title is labelled by.
    var id: String
    /// What the chart shows, for screen readers.
    var title: String
    var series: [Series]
    var days: [Day]

    func svg() -> String {
        let width = 760.0
        let height = 220.0
        let left = 40.0
        let bottom = 30.0
        let top = 10.0
        let peak = max(1, days.flatMap(\.values).max() ?? 1)
        let slot = (width - left - 10) / Double(max(1, days.count))
        let bar = max(1, slot * 0.8 / Double(max(1, series.count)))
        func y(_ value: Int) -> Double { top + (height - top - bottom) * (1 - Double(value) / Double(peak)) }
        var svg = "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"100%\" role=\"img\" aria-labelledby=\"\(id)-title\">"
            + "<title id=\"\(id)-title\">\(HTMLText.escape(title))</title>"
        // 0, the middle and the peak; a peak of 1 has no whole middle (no second line at 0).
        for tick in Set([0, peak / 2, peak]).sorted() {
            svg += "<line x1=\"\(left)\" x2=\"\(width - 10)\" y1=\"\(y(tick))\" y2=\"\(y(tick))\" stroke=\"currentColor\" stroke-opacity=\"0.15\"/>"
                + "<text x=\"\(left - 6)\" y=\"\(y(tick) + 4)\" text-anchor=\"end\">\(tick)</text>"
        }
        let labelEvery = max(1, days.count / 8)
        for (index, day) in days.enumerated() {
            let x = left + Double(index) * slot + slot * 0.1
            for (position, (series, value)) in zip(series, day.values).enumerated() {
                svg += "<rect class=\"bar-\(series.style)\" x=\"\(x + Double(position) * bar)\" y=\"\(y(value))\" width=\"\(bar)\" "
                    + "height=\"\(y(0) - y(value))\"><title>\(day.label): \(HTMLText.escape(series.name)) \(value)</title></rect>"
            }
            if index % labelEvery == 0 {
                svg += "<text x=\"\(x + slot * 0.4)\" y=\"\(height - 10)\" text-anchor=\"middle\">\(day.label.dropFirst(5))</text>"
            }
        }
        return svg + "</svg>"
    }
}
