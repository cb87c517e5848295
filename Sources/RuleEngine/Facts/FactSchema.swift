/// The facts a rule can read, derived from the typed fact records that also write the service's
/// facts documents (``FactDocument`` and its parts, each field declared once): the checker's
/// environment, the Markdown fact reference (``markdownReference()``), the JSON Schema for
/// fixtures (``jsonSchema()``) and the shape ``Facts`` decode into.
///
/// Roots: `event`, `subscription`, `purchase`, `customer` (with `transactions[]`, `refunds[]`,
/// `offersRedeemed[]`, `decisions[]`, the per-currency money tables `lifetimePurchased` and
/// `lifetimeRefunded`, and `attributes`) and `usage`. Customer attributes are declared
/// by the rule file (`attributes:`) and passed to ``init(attributes:)``.
///
/// Presence: a field of an `optional<…>` type may legitimately be absent and must be guarded with
/// `has()`. Any other field is supplied by the service whenever its section applies; if it is
/// absent anyway, reading it is an evaluation error naming it. List fields that are absent read
/// as empty lists, table (map) fields as empty tables.
public struct FactSchema: Sendable, Hashable {
    /// The record of the whole facts document (fields `event`, `subscription`, …).
    public var document: RuleRecord { storage.document }
    /// The declared customer attributes (`customer.attributes.<name>`).
    public var attributes: [RuleField] { storage.attributes }

    /// Both behind one reference: every decision's ``Facts`` carries the schema, and copying
    /// it then costs one retain.
    private let storage: Storage

    private final class Storage: Sendable {
        let document: RuleRecord
        let attributes: [RuleField]
        init(document: RuleRecord, attributes: [RuleField]) {
            self.document = document
            self.attributes = attributes
        }
    }

    /// The standard schema plus the rule file's declared customer attributes. The records come
    /// from the typed fact records' declarations (``FactDocument`` and its parts).
    public init(attributes: [RuleField] = []) {
        let attributesRecord = RuleRecord(name: Self.noAttributes.name, fields: attributes)
        storage = Storage(document: FactDocument.ruleRecord(attributes: attributesRecord), attributes: attributes)
    }

    /// The record of `customer.attributes` when the rule file declares none.
    public static let noAttributes = RuleRecord(name: "Attributes", fields: [])

    public static func == (lhs: FactSchema, rhs: FactSchema) -> Bool {
        lhs.storage === rhs.storage || (lhs.document == rhs.document && lhs.attributes == rhs.attributes)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(document)
        hasher.combine(attributes)
    }

    /// The schema without customer attributes.
    public static let standard = FactSchema()

    /// The names of the roots (`event`, `subscription`, …).
    public var rootNames: [String] { document.fields.map(\.name) }

    /// Every record type reachable from the document, each once, in declaration order.
    public var records: [RuleRecord] {
        var seen: Set<String> = []
        var result: [RuleRecord] = []
        func visit(_ type: RuleType) {
            switch type {
            case .record(let record):
                guard seen.insert(record.name).inserted else { return }
                result.append(record)
                record.fields.forEach { visit($0.type) }
            case .list(let inner), .optional(let inner), .map(let inner): visit(inner)
            default: break
            }
        }
        visit(.record(document))
        return result
    }

    /// Every enum type the facts use, each once.
    public var enums: [RuleEnum] {
        var seen: Set<String> = []
        var result: [RuleEnum] = []
        func visit(_ type: RuleType) {
            switch type {
            case .enumeration(let rule) where seen.insert(rule.name).inserted: result.append(rule)
            case .list(let inner), .optional(let inner), .map(let inner): visit(inner)
            default: break
            }
        }
        for record in records { record.fields.forEach { visit($0.type) } }
        return result
    }

    /// The type at a dotted path such as `customer.transactions` or `usage.deliveryStatus`.
    public func type(at path: String) -> RuleType? {
        var current = RuleType.record(document)
        for name in path.split(separator: ".") {
            guard case .record(let record) = current.unwrapped, let field = record.field(named: String(name)) else { return nil }
            current = field.type
        }
        return current
    }

    /// Types app-provided customer attributes (an object of name → value) as rules will read them,
    /// `customer.attributes`: the error names the attribute (`exportsLast30Days`), not its path in
    /// a document.
    public func checkAttributes(_ attributes: FactData) throws(FactsError) {
        let record = RuleRecord(name: Self.noAttributes.name, fields: self.attributes)
        var decoder = FactsDecoder(strictEnums: true)
        _ = try decoder.decodeCells(attributes, record)
    }
}
