/// A value of one of Apple's enumerations that keeps values it does not know.
///
/// Apple adds enum values over time (new notification types, offer types, …). Modelling them as
/// Swift `enum`s would make an unknown value a decoding failure; instead each Apple enumeration is a
/// struct around its wire value with static constants for the documented values. An unknown value
/// decodes, round-trips unchanged, and reports `isKnown == false`.
public protocol AppleEnumeration: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible
where RawValue: Codable & Hashable & Sendable & CustomStringConvertible {
    /// Creates a value from its wire representation; never fails.
    init(rawValue: RawValue)
    /// The values Apple documents, in documentation order.
    static var knownValues: [Self] { get }
}

extension AppleEnumeration {
    /// Whether the value is one Apple documents (as opposed to a value newer than this code).
    public var isKnown: Bool { Self.knownValues.contains(self) }

    public var description: String { rawValue.description }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(rawValue: try container.decode(RawValue.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
