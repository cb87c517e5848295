import AppStoreServer
import Foundation
import RuleEngine

/// How the console writes times and durations.
enum ConsoleFormat {
    /// `2026-11-25T14:20:00Z`.
    static func instant(_ date: Date) -> String { RuleTime.renderTimestamp(date.appStoreMilliseconds) }
    static func instant(_ millis: Int64) -> String { RuleTime.renderTimestamp(millis) }

    /// `5h 12m`, `3m`, for a time left.
    static func duration(_ millis: Int64) -> String {
        let minutes = max(0, millis) / 60_000
        return minutes >= 60 ? "\(minutes / 60)h \(minutes % 60)m" : "\(minutes)m"
    }

    /// An exact amount, with two decimals or three when there are milliunits left: `79.90 USD`,
    /// `0.995 USD`, `5800.00 JPY` (integer arithmetic, never through floating point).
    static func money(milliunits: Int64, currency: String) -> String {
        let magnitude = milliunits.magnitude
        var fraction = String(magnitude % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        if fraction.hasSuffix("0") { fraction.removeLast() }
        return (milliunits < 0 ? "-" : "") + "\(magnitude / 1000).\(fraction) \(currency)"
    }

    /// A top-level string member of a stored JSON record (`notSentReason`, `explanation`).
    static func member(_ json: String, _ name: String) -> String? {
        JSONValue.parse(Data(json.utf8))?.objectValue?[name]?.stringValue
    }
}
