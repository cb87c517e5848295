/// Exact parsing and printing of timestamps (ms since the Unix epoch, UTC) and durations (ms),
/// without Foundation date formatters or floating point.
public enum RuleTime {
    public static let second: Int64 = 1_000
    public static let minute: Int64 = 60_000
    public static let hour: Int64 = 3_600_000
    public static let day: Int64 = 86_400_000

    /// Parses `2026-12-01`, `2026-12-01T08:30:00Z`, `2026-12-01T08:30:00.250+02:00`, or
    /// `2026-12-01 08:30:00Z`. A date without a time is midnight UTC. Nil when malformed.
    public static func parseTimestamp(_ text: String) -> Int64? {
        let scalars = Array(text.unicodeScalars)
        var position = 0
        func number(_ digits: Int) -> Int64? {
            guard position + digits <= scalars.count else { return nil }
            var value: Int64 = 0
            for scalar in scalars[position..<(position + digits)] {
                guard ("0"..."9").contains(scalar) else { return nil }
                value = value * 10 + Int64(scalar.value - 48)
            }
            position += digits
            return value
        }
        func expect(_ character: Unicode.Scalar) -> Bool {
            guard position < scalars.count, scalars[position] == character else { return false }
            position += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month)
        else { return nil }
        var millis = daysFromCivil(year: year, month: month, day: day) * Self.day
        if position == scalars.count { return millis }
        guard expect("T") || expect("t") || expect(" "),
              let hours = number(2), expect(":"), let minutes = number(2), expect(":"), let seconds = number(2),
              hours < 24, minutes < 60, seconds < 61
        else { return nil }
        millis += hours * hour + minutes * minute + seconds * second
        if expect(".") {
            var fraction: Int64 = 0
            var digits = 0
            while position < scalars.count, ("0"..."9").contains(scalars[position]) {
                if digits < 3 { fraction = fraction * 10 + Int64(scalars[position].value - 48) }
                digits += 1
                position += 1
            }
            guard digits > 0 else { return nil }
            if digits < 3 { for _ in 0..<(3 - digits) { fraction *= 10 } }
            millis += fraction
        }
        if expect("Z") || expect("z") { return position == scalars.count ? millis : nil }
        let sign: Int64
        if expect("+") { sign = 1 } else if expect("-") { sign = -1 } else { return nil }
        guard let offsetHours = number(2), expect(":"), let offsetMinutes = number(2), position == scalars.count,
              offsetHours < 24, offsetMinutes < 60
        else { return nil }
        return millis - sign * (offsetHours * hour + offsetMinutes * minute)
    }

    /// `2026-12-15T12:00:00Z`, with `.250` when there are milliseconds.
    /// Any `Int64` renders (years far outside 0…9999 included) without overflowing.
    public static func renderTimestamp(_ millis: Int64) -> String {
        let (days, inDay) = floorDivision(millis, day)
        let (year, month, dayOfMonth) = civilFromDays(days)
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(dayOfMonth, 2) + "T"
        text += pad(inDay / hour, 2) + ":" + pad(inDay % hour / minute, 2) + ":" + pad(inDay % minute / second, 2)
        if inDay % second != 0 { text += "." + pad(inDay % second, 3) }
        return text + "Z"
    }

    /// Parses `400d`, `36h`, `90m`, `30s`, `250ms`, compounds such as `1d12h`, and a leading `-`.
    /// Nil when malformed, empty or overflowing.
    public static func parseDuration(_ text: String) -> Int64? {
        var scalars = Substring(text).unicodeScalars[...]
        let negative = scalars.first == "-"
        if negative { scalars = scalars.dropFirst() }
        guard !scalars.isEmpty else { return nil }
        var total: Int64 = 0
        while !scalars.isEmpty {
            var amount: Int64 = 0
            var digits = 0
            while let scalar = scalars.first, ("0"..."9").contains(scalar) {
                let (times, overflow) = amount.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                amount = times + Int64(scalar.value - 48)
                digits += 1
                scalars = scalars.dropFirst()
            }
            var unitText = ""
            while let scalar = scalars.first, ("a"..."z").contains(scalar) {
                unitText.unicodeScalars.append(scalar)
                scalars = scalars.dropFirst()
            }
            let unit: Int64
            switch unitText {
            case "d": unit = day
            case "h": unit = hour
            case "m": unit = minute
            case "s": unit = second
            case "ms": unit = 1
            default: return nil
            }
            guard digits > 0 else { return nil }
            let (part, overflow) = amount.multipliedReportingOverflow(by: unit)
            let (sum, overflow2) = total.addingReportingOverflow(part)
            guard !overflow, !overflow2 else { return nil }
            total = sum
        }
        return negative ? -total : total
    }

    /// `412d`, `36h`, `1d12h`, `90m`, `1500ms`, `0s`; negative durations get a leading `-`.
    public static func renderDuration(_ millis: Int64) -> String {
        if millis == 0 { return "0s" }
        var rest = millis.magnitude
        var text = millis < 0 ? "-" : ""
        for (unit, suffix) in [(UInt64(day), "d"), (UInt64(hour), "h"), (UInt64(minute), "m"), (UInt64(second), "s"), (1, "ms")]
        where rest >= unit {
            text += "\(rest / unit)\(suffix)"
            rest %= unit
        }
        return text
    }

    // MARK: - Civil calendar (proleptic Gregorian), after Howard Hinnant's public-domain algorithms.

    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        floorDivision(a, b).quotient
    }

    /// `a / b` rounded towards minus infinity and the remainder in `0..<b` (`b > 0`), for every `a`.
    static func floorDivision(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = a.quotientAndRemainder(dividingBy: b)
        return remainder < 0 ? (quotient - 1, remainder + b) : (quotient, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
