import Foundation

/// A subscription or offer duration in ISO 8601 form (`P1W`, `P1M`, `P3M`, `P1Y`, `P3D`), as the
/// App Store writes it in `offerPeriod`, with calendar arithmetic in UTC.
public struct SubscriptionPeriod: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The calendar unit of a period.
    public enum Unit: String, Sendable, Codable {
        case day = "D", week = "W", month = "M", year = "Y"
    }

    /// How many units.
    public let count: Int
    /// Which unit.
    public let unit: Unit

    /// A period of `count` `unit`s (`count` must be positive).
    public init(_ count: Int, _ unit: Unit) {
        precondition(count > 0, "a period must be positive")
        self.count = count
        self.unit = unit
    }

    /// Parses `PnD`, `PnW`, `PnM` or `PnY`; nil for anything else.
    public init?(iso8601 text: String) {
        guard text.count >= 3, text.first == "P", let unit = Unit(rawValue: String(text.suffix(1))),
              let count = Int(text.dropFirst().dropLast()), count > 0
        else { return nil }
        self.init(count, unit)
    }

    public static let oneWeek = Self(1, .week)
    public static let oneMonth = Self(1, .month)
    public static let oneYear = Self(1, .year)

    /// The ISO 8601 form, e.g. `P1M`.
    public var iso8601: String { "P\(count)\(unit.rawValue)" }
    public var description: String { iso8601 }

    /// This period repeated `times` times (e.g. three monthly pay-as-you-go periods → `P3M`).
    public func repeated(_ times: Int) -> SubscriptionPeriod {
        SubscriptionPeriod(count * max(times, 1), unit)
    }

    /// The instant one period after `date` (calendar months and years, UTC).
    public func added(to date: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let component: Calendar.Component
        var value = count
        switch unit {
        case .day: component = .day
        case .week: component = .day; value = count * 7
        case .month: component = .month
        case .year: component = .year
        }
        return calendar.date(byAdding: component, value: value, to: date)!
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let period = SubscriptionPeriod(iso8601: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not an ISO 8601 period like P1M: \(text)"))
        }
        self = period
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }
}
