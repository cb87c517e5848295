import Foundation
import Hummingbird
import RuleEngine
import VerdictStorage

/// The Overview's period: whole UTC days, chosen with `since` and `until` dates (`YYYY-MM-DD`,
/// both included) or a preset `days` (7, 30, 90, 365) ending today; 30 days by default. Every
/// day of the period is listed, so a chart shows quiet days as zero.
struct ConsolePeriod {
    /// A preset link of the period picker.
    struct Preset {
        var days: Int
        var href: String
        var current: Bool
    }

    static let presets = [7, 30, 90, 365]
    /// At most this many days (about three years): a period is listed day by day.
    static let longest: Int64 = 1_100

    var first: Int64
    var last: Int64

    init(first: Int64, last: Int64) {
        self.first = first
        self.last = last
    }

    /// The period of `request`'s query string; malformed or reversed dates fall back to the
    /// default, a period longer than ``longest`` keeps its last days.
    init(_ request: Request, today: Int64) throws {
        func day(_ name: String) throws -> Int64? {
            guard let text = try request.query(name), let millis = RuleTime.parseTimestamp(text) else { return nil }
            return DayRange.day(of: millis)
        }
        let days = Int64(try request.query("days").flatMap { Int($0) }.map { min(max($0, 1), Int(Self.longest)) } ?? 30)
        let last = try day("until") ?? today
        var first = try day("since") ?? last - days + 1
        if first > last { first = last - days + 1 }
        self.init(first: max(first, last - Self.longest + 1), last: last)
    }

    var range: DayRange { DayRange(first: first, last: last) }
    var dayCount: Int { Int(last - first + 1) }
    var since: String { Self.date(first) }
    var until: String { Self.date(last) }

    /// Each day of the period as `YYYY-MM-DD`, oldest first.
    var dayLabels: [String] { (first...last).map(Self.date) }

    /// The preset links of `path` (the Overview, the All apps page) for `links`' app.
    func presets(today: Int64, links: ConsoleLinks, path: String = "/console/overview") -> [Preset] {
        Self.presets.map { days in
            Preset(days: days, href: links.page(path, [("days", String(days))]), current: last == today && dayCount == days)
        }
    }

    static func date(_ day: Int64) -> String { String(RuleTime.renderTimestamp(day * DayRange.milliseconds).prefix(10)) }
}
