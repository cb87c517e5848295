import AppStoreServer
import Foundation

/// Reads the fields of a JSON object request body inside a ``JSONRequestBody``'s `init(from:)`, with
/// typed, explained errors: a missing required field or a value of the wrong JSON type is 400; an
/// unknown field is 400 too, so a typo never silently drops a value. Range and enum checks are the
/// body type's (422).
struct JSONFields {
    let object: [String: JSONValue]

    /// Reads the decoder's value as one JSON object whose keys are all in `allowed`.
    init(_ decoder: any Decoder, allowed: Set<String>) throws {
        guard let object = try JSONValue(from: decoder).objectValue else {
            throw RequestBodyError.badRequest("MALFORMED_JSON", "the body must be a JSON object")
        }
        try RequestBodyError.refuseUnknown(object.keys, fields: allowed)
        self.object = object
    }

    /// The value, nil when absent. `null` is not absence: it is refused like any value of the
    /// wrong type (leave an optional field out instead).
    private func present(_ name: String, _ expected: String) throws -> JSONValue? {
        guard let value = object[name] else { return nil }
        guard value != .null else { throw wrongType(name, expected) }
        return value
    }

    private func wrongType(_ name: String, _ expected: String) -> RequestBodyError {
        .invalidField(name, expected)
    }

    func bool(_ name: String) throws -> Bool? {
        let expected = "true or false"
        guard let value = try present(name, expected) else { return nil }
        guard let bool = value.boolValue else { throw wrongType(name, expected) }
        return bool
    }

    /// A non-empty string of at most `maxLength` Unicode code points (as the OpenAPI document counts).
    func string(_ name: String, maxLength: Int = 200) throws -> String? {
        let expected = "a non-empty string of at most \(maxLength) characters"
        guard let value = try present(name, expected) else { return nil }
        guard let text = value.stringValue, !text.isEmpty, text.unicodeScalars.count <= maxLength else {
            throw wrongType(name, expected)
        }
        return text
    }

    func integer(_ name: String) throws -> Int64? {
        let expected = "a whole number"
        guard let value = try present(name, expected) else { return nil }
        guard let number = value.integerValue else { throw wrongType(name, expected) }
        return number
    }

    /// A time as UNIX milliseconds (Apple's convention) or an ISO 8601 string.
    func timestamp(_ name: String) throws -> Int64? {
        let expected = "UNIX milliseconds or an ISO 8601 time such as 2026-11-24T09:30:00Z"
        guard let value = try present(name, expected) else { return nil }
        if let number = value.integerValue { return number }
        if let text = value.stringValue, let date = InternetDateTime.parse(text) { return date.appStoreMilliseconds }
        throw wrongType(name, expected)
    }

    /// Throws 400 `MISSING_FIELD` when `value` is nil.
    func required<T>(_ value: T?, _ name: String) throws -> T {
        guard let value else { throw RequestBodyError.badRequest("MISSING_FIELD", "'\(name)' is required") }
        return value
    }
}
