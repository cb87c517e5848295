import AppStoreServer

/// A typed record of the facts document (``FactDocument`` and its parts): its fields are declared
/// once, in ``fields``, and both the rule schema (``ruleRecord(attributes:)``, from which
/// ``FactSchema`` is built) and the JSON a value writes (``json``) come from that declaration.
public protocol FactRecord: Sendable {
    /// The record's type name in the rule language and the fact reference (`Subscription`).
    static var recordName: String { get }
    /// The fields, in the order the fact reference lists them.
    static var fields: [FactField<Self>] { get }
}

extension FactRecord {
    /// The record's rule type; `attributes` is the record of the customer attributes the rule
    /// file declares (empty for the standard schema).
    public static func ruleRecord(attributes: RuleRecord = FactSchema.noAttributes) -> RuleRecord {
        RuleRecord(name: recordName, fields: fields.map { $0.declaration(attributes: attributes) })
    }

    /// The record as a facts-document object: every present field under its declared name.
    public var json: JSONValue {
        var object: [String: JSONValue] = [:]
        object.reserveCapacity(Self.fields.count)
        for field in Self.fields {
            if let value = field.write(self) { object[field.name] = value }
        }
        return .object(object)
    }
}
