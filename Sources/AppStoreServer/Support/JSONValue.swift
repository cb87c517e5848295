import Foundation

/// A JSON value decoded without coercion, so request validation can tell `true` from `1` and a
/// missing member from a member of the wrong type (Apple answers each with its own error code),
/// and stored JSON can be embedded in a response as it is.
public enum JSONValue: Codable, Equatable, Sendable {
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    case null

    /// Decodes the value as it is written. `Decoder` cannot tell what comes next, so each kind is
    /// tried in turn and every miss throws (an error built and, under a test runner, a backtrace
    /// taken): the kinds are tried most common first — strings, integers, objects — and a string
    /// costs no miss at all. The kinds are disjoint except that an integer also decodes as a
    /// `Double`, which is why integers come first.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else {
            self = .array(try container.decode([JSONValue].self))
        }
    }

    /// Parses `data` as a JSON document; nil when it is not valid JSON.
    public static func parse(_ data: Data) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: data)
    }

    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): value
        case .number(let value) where value.rounded() == value && abs(value) < 9e18: Int64(value)
        default: nil
        }
    }
    public var objectValue: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }

    /// The value at a dotted path of object keys (`record.body.corrections`), nil when any step is
    /// missing or not an object.
    public func value(at path: String) -> JSONValue? {
        var current: JSONValue? = self
        for key in path.split(separator: ".") { current = current?.objectValue?[String(key)] }
        return current
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
