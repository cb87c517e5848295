import AppStoreServer
import Foundation
import RuleEngine
import Testing
import VerdictService

/// The replay report page opened in headless Chromium: it loads offline without console errors,
/// every number on it is the JSON report's number at the pointer it names, the chart draws a bar
/// per bundle and day, and it is readable light and dark (screenshots of both are written).
@Suite("Replay report page in headless Chromium", .serialized,
       .enabled(if: BrowserTestEnvironment.isEnabled, BrowserTestEnvironment.skipReason))
struct ReplayReportPageBrowserTests {
    /// The fixture's report, its JSON, and the page written to a temporary file.
    struct RenderedReport {
        let report: ReplayReport
        let json: JSONValue
        let page: URL
    }

    static func render() throws -> RenderedReport {
        let report = try ReplayReportFixture.report()
        let data = try ReplayReportFiles.json(report)
        let json = try #require(JSONValue.parse(data), "the JSON report does not parse")
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-replay-report-\(UUID().uuidString).html")
        try Data(ReplayReportPage.render(report).utf8).write(to: page)
        return RenderedReport(report: report, json: json, page: page)
    }

    /// Renders the fixture, opens the page in a fresh browser and runs `body`.
    static func withPage(_ body: (BrowserSession, RenderedReport) async throws -> Void) async throws {
        let rendered = try render()
        defer { try? FileManager.default.removeItem(at: rendered.page) }
        try await HeadlessChromium.withSession { browser in
            try await browser.navigate(to: rendered.page)
            try await body(browser, rendered)
        }
    }

    @Test("loads from the file alone, with no console error, a language and headings")
    func loadsCleanly() async throws {
        try await Self.withPage { browser, _ in
            let problems = try await browser.consoleLog().filter { $0.isSevere || $0.isFailedLoad }
            #expect(problems.isEmpty, "console: \(problems)")
            // Resource timing lists what came over the network (not file: or data: loads), so the
            // references a page could load from are listed from the DOM and the style sheet too.
            let page = try await browser.execute("""
                return {
                  resources: performance.getEntriesByType('resource').map(r => r.name),
                  references: Array.from(document.querySelectorAll('[src], [srcset], object[data], [href]:not(a[href^="#"])'))
                    .map(e => e.outerHTML.slice(0, 200)),
                  cssReferences: Array.from(document.styleSheets).flatMap(sheet => Array.from(sheet.cssRules))
                    .map(rule => rule.cssText).filter(text => /url\\(|@import/.test(text)),
                  lang: document.documentElement.lang,
                  title: document.title,
                  h1: document.querySelectorAll('h1').length,
                  h2: Array.from(document.querySelectorAll('h2')).map(h => h.textContent.trim()),
                  overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth
                };
                """)
            let facts = try #require(page.objectValue, "the page script answered \(page)")
            for key in ["resources", "references", "cssReferences"] {
                #expect(facts[key]?.arrayValue?.isEmpty == true, "\(key) besides the page: \(facts[key] ?? .null)")
            }
            #expect(facts["lang"]?.stringValue == "en")
            #expect(facts["title"]?.stringValue?.isEmpty == false)
            #expect(facts["h1"]?.integerValue == 1)
            let sections = facts["h2"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(sections.contains("Totals") && sections.contains("Offers by day"), "h2: \(sections)")
            #expect(facts["overflow"]?.integerValue == 0, "the page scrolls sideways in a 1280-pixel window")
        }
    }

    @Test("every number carries a pointer to the same number in the JSON report")
    func numbersMatchTheJSON() async throws {
        try await Self.withPage { browser, rendered in
            let report = rendered.report
            #expect(report.transitions.count { $0.changed } >= 3 && !report.outcomes.isEmpty && !report.errors.isEmpty
                    && !report.diff.isEmpty, "the fixture no longer fills every part of the page")
            let value = try await browser.execute(
                "return Array.from(document.querySelectorAll('[data-json]')).map(e => [e.getAttribute('data-json'), e.textContent.trim()]);")
            let numbers = try #require(value.arrayValue, "the script answered \(value)").compactMap { pair -> (String, String)? in
                guard let pair = pair.arrayValue?.compactMap(\.stringValue), pair.count == 2 else { return nil }
                return (pair[0], pair[1])
            }
            #expect(!numbers.isEmpty)
            for (pointer, text) in numbers {
                let expected = rendered.json.value(atPointer: pointer)?.displayText
                #expect(expected == text, "data-json=\"\(pointer)\" shows \(text), the JSON has \(expected ?? "nothing")")
            }
            let shown = Set(numbers.map(\.0))
            let required = ["/totals/replayed", "/totals/changed", "/totals/unchanged", "/totals/errors"]
                + report.transitions.indices.map { "/transitions/\($0)/count" }
            for pointer in required {
                #expect(shown.contains(pointer), "no element shows \(pointer)")
            }
        }
    }

    @Test("every change of the rules is listed beside the transitions, with its file:line and old → new")
    func diffBesideTheTransitions() async throws {
        try await Self.withPage { browser, rendered in
            let value = try await browser.execute("""
                const aside = document.querySelector('#diff');
                const matrix = document.querySelector('#matrix-offers');
                if (!aside || !matrix) return null;
                const text = (li, selector) => { const e = li.querySelector(selector); return e ? e.textContent.trim() : ''; };
                const items = Array.from(aside.querySelectorAll('ol.changes > li'))
                  .map(li => [text(li, 'code'), text(li, '.where'), text(li, '.detail'), text(li, '.tag')]);
                const a = aside.getBoundingClientRect(), m = matrix.getBoundingClientRect();
                return { items, heading: text(aside, 'h2'), besides: a.left >= m.right && a.top < m.bottom && m.top < a.bottom };
                """)
            let page = try #require(value.objectValue, "no #diff beside #matrix-offers")
            let diff = rendered.report.diff
            #expect(diff.contains { $0.kind == "constant" } && diff.contains { $0.change == .added },
                    "the fixture no longer changes a constant and adds a rule")
            let shown = page["items"]?.arrayValue?.map { $0.arrayValue?.compactMap(\.stringValue) ?? [] } ?? []
            #expect(shown == diff.map { [$0.rule, "\($0.file):\($0.line)", $0.detail ?? "", $0.change.rawValue] })
            #expect(page["heading"]?.stringValue == "What changed in the rules")
            #expect(page["besides"] == .bool(true), "the list of changes is not beside the offers matrix")
        }
    }

    @Test("the chart draws one baseline and one candidate bar per day, labelled with the day's numbers")
    func chartHasABarPerBundleAndDay() async throws {
        try await Self.withPage { browser, rendered in
            let value = try await browser.execute("""
                const svg = document.querySelector('#offers-by-day svg');
                if (!svg) return null;
                const titles = kind => Array.from(svg.querySelectorAll('rect.bar-' + kind)).map(r => r.querySelector('title').textContent);
                const box = svg.getBoundingClientRect();
                return { baseline: titles('baseline'), candidate: titles('candidate'), width: Math.round(box.width), height: Math.round(box.height) };
                """)
            let chart = try #require(value.objectValue, "no inline SVG in #offers-by-day")
            let days = rendered.report.offersByDay
            #expect(days.count == 6)
            #expect(chart["baseline"]?.arrayValue?.compactMap(\.stringValue) == days.map { "\($0.day): baseline \($0.baseline)" })
            #expect(chart["candidate"]?.arrayValue?.compactMap(\.stringValue) == days.map { "\($0.day): candidate \($0.candidate)" })
            #expect((chart["width"]?.integerValue ?? 0) > 300 && (chart["height"]?.integerValue ?? 0) > 100,
                    "the chart is drawn \(chart["width"] ?? .null) × \(chart["height"] ?? .null)")
        }
    }

    @Test("light and dark: the background follows prefers-color-scheme; full-page screenshots of both")
    func lightAndDark() async throws {
        try await Self.withPage { browser, _ in
            for scheme in ["light", "dark"] {
                try await browser.emulateColorScheme(scheme)
                let colours = try await browser.execute("""
                    const style = getComputedStyle(document.body);
                    return [style.backgroundColor, style.color];
                    """)
                let pair = colours.arrayValue?.compactMap(\.stringValue) ?? []
                try #require(pair.count == 2, "the script answered \(colours)")
                let (background, text) = (try Self.luminance(pair[0]), try Self.luminance(pair[1]))
                if scheme == "dark" {
                    #expect(background < 0.1 && text > 0.6, "dark: background \(pair[0]), text \(pair[1])")
                } else {
                    #expect(background > 0.9 && text < 0.2, "light: background \(pair[0]), text \(pair[1])")
                }
                let png = try await browser.fullPageScreenshot()
                #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "not a PNG")
                try BrowserTestEnvironment.saveScreenshot(
                    png, name: scheme == "light" ? "replay-report.png" : "replay-report-dark.png", publish: scheme == "light")
            }
        }
    }

    /// The relative luminance (0 black … 1 white) of a CSS `rgb(r, g, b)` / `rgba(…)` colour.
    static func luminance(_ css: String) throws -> Double {
        let parts = css.split { !$0.isNumber && $0 != "." }.compactMap { Double($0) }
        guard parts.count >= 3 else { throw ServiceTestError("not an rgb() colour: \(css)") }
        func linear(_ channel: Double) -> Double {
            let c = channel / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(parts[0]) + 0.7152 * linear(parts[1]) + 0.0722 * linear(parts[2])
    }
}
