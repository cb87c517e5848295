import Foundation

/// JSON coding as Apple uses it: dates are integer milliseconds since 1970 (fractional accepted on
/// input), absent optionals are omitted, nothing is escaped that need not be.
public enum AppStoreJSON {
    /// The decoder for Apple's payloads and API responses. It is shared (decoding is thread-safe,
    /// and building a decoder per payload is measurable on the verification hot path): never mutate it.
    public static func decoder() -> JSONDecoder { sharedDecoder }

    private static let sharedDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
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
    public var appStoreMilliseconds: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }

    /// The date `milliseconds` after 1970-01-01T00:00:00Z.
    public init(appStoreMilliseconds milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
