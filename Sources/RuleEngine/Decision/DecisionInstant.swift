/// A millisecond quantity in a decision record that JSON carries as text (an instant as ISO 8601,
/// a duration as `36h`). Rendering is deferred to encoding so deciding stays cheap.
public protocol DecisionTextMillis: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The quantity in milliseconds.
    var millis: Int64 { get }
    /// The quantity `millis`.
    init(millis: Int64)
    /// Parses the text form; nil when it is not one.
    static func parse(_ text: String) -> Int64?
    /// What the text form is, for decoding errors.
    static var textKind: String { get }
}

extension DecisionTextMillis {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let millis = Self.parse(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not \(Self.textKind): \(text)")
        }
        self.init(millis: millis)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// An instant in a decision record: milliseconds since 1970, written as ISO 8601 in JSON
/// (`2026-12-15T12:00:00Z`).
public struct DecisionInstant: DecisionTextMillis {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let millis: Int64

    /// The instant `millis`.
    public init(millis: Int64) { self.millis = millis }

    public static func parse(_ text: String) -> Int64? { RuleTime.parseTimestamp(text) }
    public static let textKind = "an ISO 8601 instant"

    /// ISO 8601.
    public var description: String { RuleTime.renderTimestamp(millis) }
}

/// A duration in a decision record: milliseconds, written as `180d` / `36h` in JSON.
public struct DecisionDuration: DecisionTextMillis {
    /// Milliseconds.
    public let millis: Int64

    /// The duration `millis`.
    public init(millis: Int64) { self.millis = millis }

    public static func parse(_ text: String) -> Int64? { RuleTime.parseDuration(text) }
    public static let textKind = "a duration"

    /// `180d`, `36h`, `1d12h`.
    public var description: String { RuleTime.renderDuration(millis) }
}
