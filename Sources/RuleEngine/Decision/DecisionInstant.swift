/// An instant in a decision record: milliseconds since 1970, written as ISO 8601 in JSON
/// (`2026-12-15T12:00:00Z`). Rendering is deferred to encoding so deciding stays cheap.
public struct DecisionInstant: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public let millis: Int64

    /// The instant `millis`.
    public init(millis: Int64) { self.millis = millis }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let millis = RuleTime.parseTimestamp(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO 8601 instant: \(text)")
        }
        self.millis = millis
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// ISO 8601.
    public var description: String { RuleTime.renderTimestamp(millis) }
}

/// A duration in a decision record: milliseconds, written as `180d` / `36h` in JSON.
public struct DecisionDuration: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Milliseconds.
    public let millis: Int64

    /// The duration `millis`.
    public init(millis: Int64) { self.millis = millis }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let millis = RuleTime.parseDuration(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a duration: \(text)")
        }
        self.millis = millis
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// `180d`, `36h`, `1d12h`.
    public var description: String { RuleTime.renderDuration(millis) }
}
