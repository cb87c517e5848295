import Foundation

/// RFC 3339 date-times (`2026-11-24T09:30:00Z`, `2026-11-24T10:30:00.250+01:00`), read strictly:
/// every field is range-checked before conversion, so an impossible time (February 30th, hour
/// 24, offset `+24:00`) is refused instead of rolled over into another one.
public enum InternetDateTime {
    /// The instant `text` names, or nil when it is not a valid RFC 3339 date-time.
    public static func parse(_ text: String) -> Date? {
        let pattern = #/(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})/#
        guard let match = text.wholeMatch(of: pattern)?.output else { return nil }
        guard let year = Int(match.1), let month = Int(match.2), let day = Int(match.3), let hour = Int(match.4),
              let minute = Int(match.5), let second = Int(match.6),
              (1...12).contains(month), (1...daysIn(month, year)).contains(day),
              hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var offset = 0
        let zone = match.8
        if zone.count == 6 {
            let hours = Int(zone.dropFirst().prefix(2)) ?? 99, minutes = Int(zone.suffix(2)) ?? 99
            guard hours <= 23, minutes <= 59 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (zone.first == "-" ? -1 : 1)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let whole = calendar.date(from: components) else { return nil }
        let fraction = match.7.flatMap { Double("0" + $0) } ?? 0
        return whole.addingTimeInterval(fraction - Double(offset))
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
