import Foundation

/// Small text conversions for the demo's output: prices in Apple's milliunits, long tokens
/// shortened, yes/no.
enum DemoFormat {
    /// `59990, "USD"` → `59.99 USD`; `1200000, "JPY"` → `1200 JPY` (currencies without minor
    /// units print without decimals).
    static func money(_ milliunits: Int64, _ currency: String) -> String {
        let zeroDecimal: Set<String> = ["JPY", "KRW", "CLP", "ISK", "TWD", "HUF", "VND"]
        let units = Double(milliunits) / 1000
        let amount = String(format: zeroDecimal.contains(currency) ? "%.0f" : "%.2f", units)
        return "\(amount) \(currency)"
    }

    /// The start and end of a long string with its length: `eyJhbGciOiJFUzI1NiIs…o0w (1034 chars)`.
    static func shortened(_ text: String, head: Int = 28, tail: Int = 10) -> String {
        guard text.count > head + tail + 3 else { return text }
        return "\(text.prefix(head))…\(text.suffix(tail))  (\(text.count) chars)"
    }

    /// `yes` / `no`.
    static func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }

    /// UNIX milliseconds as an ISO 8601 instant (UTC, seconds precision).
    static func instant(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// A value for shell single quotes (`'` closed, escaped and reopened).
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
