/// The static type of a rule expression or of a fact.
///
/// Rules-CEL has no `double`, `uint`, `bytes` or `null`: amounts are ``Money``, times are
/// milliseconds, and a fact that may legitimately be absent is ``optional(_:)`` — reading it
/// requires a `has()` guard, checked when the rules load.
public indirect enum RuleType: Hashable, Sendable, CustomStringConvertible {
    case bool
    case int
    case string
    case money
    /// Milliseconds.
    case duration
    /// Milliseconds since 1970-01-01T00:00:00Z.
    case timestamp
    case enumeration(RuleEnum)
    case list(RuleType)
    /// String keys to values; only constants have this type.
    case map(RuleType)
    case record(RuleRecord)
    /// A field that may be absent; only field declarations carry it.
    case optional(RuleType)

    /// The type without its ``optional(_:)`` wrapper.
    public var unwrapped: RuleType {
        if case .optional(let inner) = self { return inner }
        return self
    }

    /// Whether values of this type are ordered by `< <= > >=`.
    public var isOrdered: Bool {
        switch self {
        case .int, .string, .money, .duration, .timestamp: true
        default: false
        }
    }

    /// How the type is written in messages and the fact reference: `int`, `list<Transaction>`.
    public var description: String {
        switch self {
        case .bool: "bool"
        case .int: "int"
        case .string: "string"
        case .money: "money"
        case .duration: "duration"
        case .timestamp: "timestamp"
        case .enumeration(let type): type.name
        case .list(let element): "list<\(element)>"
        case .map(let value): "map<string, \(value)>"
        case .record(let record): record.name
        case .optional(let inner): "optional<\(inner)>"
        }
    }
}

/// One field of a ``RuleRecord``: its name, type (``RuleType/optional(_:)`` when the fact may be
/// absent) and a one-line description used by the fact reference.
public struct RuleField: Hashable, Sendable {
    public let name: String
    public let type: RuleType
    public let doc: String

    public init(_ name: String, _ type: RuleType, _ doc: String) {
        self.name = name
        self.type = type
        self.doc = doc
    }

    /// Whether the field may be absent (its declared type is optional).
    public var isOptional: Bool {
        if case .optional = type { return true }
        return false
    }
}

/// A record type (a fact object such as `subscription` or one element of `customer.transactions`).
///
/// Records are stored flat: a nested record field (such as `customer.attributes`) contributes its
/// own fields' cells instead of one cell, so every fact of the document — and every field of one
/// row of a ``RecordTable`` — sits at a fixed cell offset the checker computes once
/// (``cellOffsets``, ``cellCount``). Evaluation never looks a name up.
///
/// An optional nested record (such as `subscription.commitment`) contributes one presence cell
/// first — ``RuleValue/absent`` when the record is missing, `true` when present, which `has()`
/// reads — and then its fields' cells (``optionalRecord(_:)``).
public struct RuleRecord: Hashable, Sendable {
    /// The type name shown in messages and docs (`Subscription`, `Transaction`).
    public let name: String
    public let fields: [RuleField]
    /// The cell offset of each field, in field order (a nested record's first cell).
    public let cellOffsets: [Int]
    /// The number of cells a value of this record occupies when flattened.
    public let cellCount: Int
    private let indexByName: [String: Int]

    public init(name: String, fields: [RuleField]) {
        self.name = name
        self.fields = fields
        var index: [String: Int] = [:]
        var offsets: [Int] = []
        var next = 0
        for (offset, field) in fields.enumerated() {
            if index[field.name] == nil { index[field.name] = offset }
            offsets.append(next)
            if case .record(let nested) = field.type {
                next += nested.cellCount
            } else if case .optional(.record(let nested)) = field.type {
                next += 1 + nested.cellCount
            } else {
                next += 1
            }
        }
        self.indexByName = index
        self.cellOffsets = offsets
        self.cellCount = next
    }

    /// The record of an optional nested record field, whose presence cell is followed by the
    /// record's own cells; nil for any other type.
    static func optionalRecord(_ type: RuleType) -> RuleRecord? {
        if case .optional(.record(let nested)) = type { return nested }
        return nil
    }

    /// The slot of the field called `name`, or nil.
    public func index(of name: String) -> Int? { indexByName[name] }

    /// The field called `name`, or nil.
    public func field(named name: String) -> RuleField? { indexByName[name].map { fields[$0] } }

    public static func == (lhs: RuleRecord, rhs: RuleRecord) -> Bool {
        lhs.name == rhs.name && lhs.fields == rhs.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(fields.count)
    }
}
