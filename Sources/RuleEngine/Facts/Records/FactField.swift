import AppStoreServer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One field of a typed fact record (``FactRecord``), declared once: its name, its rule type and
/// meaning (what the checker and the fact reference see) and how a value of the record writes it
/// into a facts document. The constructors tie the rule type to the Swift type of the value, so
/// the schema and the documents cannot drift apart.
///
/// A value of nil leaves the field out of the document. Whether that is legitimate is the
/// declaration's business: only a field marked ``optional`` may be absent when its section
/// applies (rules must guard it with `has()`).
public struct FactField<Record>: Sendable {
    /// The fact's name in its record (`productId`).
    public let name: String
    /// Its one-line meaning, for the fact reference.
    public let doc: String
    /// Its rule type, given the record of the customer attributes the rule file declares.
    let declaredType: @Sendable (_ attributes: RuleRecord) -> RuleType
    /// Its value in a document, nil when absent.
    let write: @Sendable (Record) -> JSONValue?

    init(_ name: String, _ doc: String, type: @escaping @Sendable (RuleRecord) -> RuleType,
         write: @escaping @Sendable (Record) -> JSONValue?) {
        self.name = name
        self.doc = doc
        self.declaredType = type
        self.write = write
    }

    /// The same field declared as possibly absent (``RuleType/optional(_:)``).
    public var optional: FactField {
        let type = declaredType
        return FactField(name, doc, type: { .optional(type($0)) }, write: write)
    }

    /// The field's declaration in the rule schema.
    func declaration(attributes: RuleRecord) -> RuleField {
        RuleField(name, declaredType(attributes), doc)
    }

    // MARK: Scalars

    /// A string fact.
    public static func string(_ name: String, _ value: @escaping @Sendable (Record) -> String?, _ doc: String) -> FactField {
        FactField(name, doc, type: { _ in .string }, write: { value($0).map(JSONValue.string) })
    }

    /// A whole-number fact.
    public static func int(_ name: String, _ value: @escaping @Sendable (Record) -> Int64?, _ doc: String) -> FactField {
        FactField(name, doc, type: { _ in .int }, write: { value($0).map(JSONValue.integer) })
    }

    /// A true-or-false fact.
    public static func bool(_ name: String, _ value: @escaping @Sendable (Record) -> Bool?, _ doc: String) -> FactField {
        FactField(name, doc, type: { _ in .bool }, write: { value($0).map(JSONValue.bool) })
    }

    /// An amount of money: `{"milliunits": …, "currency": …}`.
    public static func money(_ name: String, _ value: @escaping @Sendable (Record) -> FactDocument.Amount?, _ doc: String) -> FactField {
        FactField(name, doc, type: { _ in .money }, write: { value($0)?.json })
    }

    /// An instant, written as epoch milliseconds.
    public static func timestamp(_ name: String, _ value: @escaping @Sendable (Record) -> Date?, _ doc: String) -> FactField {
        FactField(name, doc, type: { _ in .timestamp }, write: { value($0).map { .integer($0.appStoreMilliseconds) } })
    }

    /// A length of time in milliseconds.
    public static func duration(_ name: String, milliseconds value: @escaping @Sendable (Record) -> Int64?, _ doc: String) -> FactField {
        FactField(name, doc, type: { _ in .duration }, write: { value($0).map(JSONValue.integer) })
    }

    /// One of Apple's enumerations, typed by its rule enum and written as Apple's wire value.
    /// `whenAbsent` names the rule case written when the value is nil (`NONE` for a notification
    /// without a subtype), so the field is always present.
    public static func enumeration<E: FactEnumeration>(
        _ name: String, _ value: @escaping @Sendable (Record) -> E?, whenAbsent: String? = nil, _ doc: String
    ) -> FactField {
        FactField(name, doc, type: { _ in .enumeration(E.ruleEnum) }, write: { record in
            value(record).map(\.factValue) ?? whenAbsent.map(JSONValue.string)
        })
    }

    // MARK: Collections and records

    /// A list of strings.
    public static func strings(_ name: String, _ value: @escaping @Sendable (Record) -> [String]?, _ doc: String) -> FactField {
        FactField(name, doc, type: { _ in .list(.string) }, write: { value($0).map { .array($0.map(JSONValue.string)) } })
    }

    /// Money per ISO 4217 currency (`map<string, money>`), each entry in its key's currency.
    public static func moneyTable(
        _ name: String, _ value: @escaping @Sendable (Record) -> [String: FactDocument.Amount]?, _ doc: String
    ) -> FactField {
        FactField(name, doc, type: { _ in .map(.money) }, write: { value($0).map { .object($0.mapValues(\.json)) } })
    }

    /// A nested record.
    public static func record<Nested: FactRecord>(
        _ name: String, _ value: @escaping @Sendable (Record) -> Nested?, _ doc: String
    ) -> FactField {
        FactField(name, doc, type: { .record(Nested.ruleRecord(attributes: $0)) }, write: { value($0)?.json })
    }

    /// A list of records.
    public static func records<Element: FactRecord>(
        _ name: String, _ value: @escaping @Sendable (Record) -> [Element]?, _ doc: String
    ) -> FactField {
        FactField(name, doc, type: { .list(.record(Element.ruleRecord(attributes: $0))) },
                  write: { value($0).map { .array($0.map(\.json)) } })
    }

    /// The app-provided customer attributes: a JSON object typed by the rule file's `attributes:`.
    public static func attributes(_ name: String, _ value: @escaping @Sendable (Record) -> JSONValue?, _ doc: String) -> FactField {
        FactField(name, doc, type: { .record($0) }, write: value)
    }
}
