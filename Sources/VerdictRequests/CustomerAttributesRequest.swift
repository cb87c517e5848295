import AppStoreServer
import RuleEngine

/// The body of `PUT /v1/customers/{appAccountToken}/attributes`: one JSON object of name → value
/// (422 `INVALID_ATTRIBUTES` otherwise), typed against the active bundle's `attributes:` by
/// ``check(against:)`` (422 `ATTRIBUTE_MISMATCH` on an undeclared name or a value of the wrong type).
public struct CustomerAttributesRequest: JSONRequestBody {
    public static let expected = "JSON"

    /// The attributes, a JSON object.
    public var attributes: JSONValue

    public init(from decoder: any Decoder) throws {
        attributes = try JSONValue(from: decoder)
        guard case .object = attributes else {
            throw RequestBodyError.unprocessable("INVALID_ATTRIBUTES", "the attributes must be one JSON object of name → value")
        }
    }

    /// Types the attributes as the rules will read them: `customer.attributes` of `schema`.
    public func check(against schema: FactSchema) throws(RequestBodyError) {
        do {
            try schema.checkAttributes(FactData(attributes))
        } catch {
            var message = "\(error.path): \(error.message)"
            if let suggestion = error.suggestion { message += " (\(suggestion))" }
            throw .unprocessable("ATTRIBUTE_MISMATCH", message)
        }
    }
}
