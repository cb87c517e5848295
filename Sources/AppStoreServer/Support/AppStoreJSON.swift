import Foundation

/// JSON coding as Apple uses it: dates are integer milliseconds since 1970 (fractional accepted on
/// input), absent optionals are omitted, nothing is escaped that need not be.
///
/// A date is decoded only when it lies in ``dateRange`` (1970 to the end of year 9999): anything
/// else — negative, `1e999`, 2^64, a string — is a decoding error naming the field, so no date from
/// a payload can reach an API that traps on dates a certificate cannot represent.
public enum AppStoreJSON {
    /// The milliseconds a decoded date may carry: 1970-01-01T00:00:00Z through 9999-12-31T23:59:59.999Z.
    public static let dateRange: ClosedRange<Double> = 0...253_402_300_799_999

    /// The decoder for Apple's payloads and API responses. It is shared (decoding is thread-safe,
    /// and building a decoder per payload is measurable on the verification hot path): never mutate it.
    public static func decoder() -> JSONDecoder { sharedDecoder }

    private static let sharedDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let milliseconds = try container.decode(Double.self)
            guard dateRange.contains(milliseconds) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "a date must be milliseconds between 1970 and the end of 9999")
            }
            return Date(timeIntervalSince1970: milliseconds / 1000)
        }
        return decoder
    }()

    /// An encoder that writes dates as integer milliseconds (rounded to the nearest millisecond).
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.appStoreMilliseconds)
        }
        return encoder
    }
}

extension Date {
    /// Milliseconds since 1970, rounded to the nearest millisecond, as Apple's JSON carries dates.
    /// Saturates at `Int64.min` / `Int64.max` (and reads a NaN date as 0) instead of trapping.
    public var appStoreMilliseconds: Int64 {
        let milliseconds = (timeIntervalSince1970 * 1000).rounded()
        if milliseconds.isNaN { return 0 }
        if milliseconds >= 0x1p63 { return .max }
        if milliseconds < -0x1p63 { return .min }
        return Int64(milliseconds)
    }

    /// The date `milliseconds` after 1970-01-01T00:00:00Z.
    public init(appStoreMilliseconds milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
