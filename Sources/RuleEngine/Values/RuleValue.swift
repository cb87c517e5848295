/// A runtime value of the rule language. Compact on purpose: enum cases are ordinals of their
/// ``RuleEnum``, records are positional (field slots resolved by the checker), durations and
/// timestamps are milliseconds. A value does not know its own type; ``rendered(as:)`` takes it.
public enum RuleValue: Hashable, Sendable {
    case bool(Bool)
    case int(Int64)
    case string(String)
    case money(Money)
    /// Milliseconds.
    case duration(Int64)
    /// Milliseconds since 1970-01-01T00:00:00Z.
    case timestamp(Int64)
    /// The ordinal of a case in its ``RuleEnum`` (``RuleEnum/unrecognizedOrdinal`` for a value
    /// this version does not know).
    case enumeration(Int32)
    case list([RuleValue])
    case map([String: RuleValue])
    /// Field values in the order of the record type's fields (nested records nested). Evaluation
    /// reads records from flat cells instead; this form is for display and ``Facts/value(at:)``.
    case record([RuleValue])
    /// A list of records (facts lists such as `customer.transactions`, and their `filter`s).
    case table(RecordTable)
    /// A fact (record field) that is not present.
    case absent

    /// The value as a PM reads it in explanations: `59.99 USD`, `412d`, `AUTO_RENEW_DISABLED`,
    /// `'com.example.pro'`, `2026-12-15T12:00:00Z`, `[1, 2]`.
    public func rendered(as type: RuleType) -> String {
        switch (self, type.unwrapped) {
        case (.bool(let value), _): return value ? "true" : "false"
        case (.int(let value), _): return String(value)
        case (.string(let value), _): return "'" + value + "'"
        case (.money(let value), _): return value.currencyCode == 0 ? "0" : value.description
        case (.duration(let value), _): return RuleTime.renderDuration(value)
        case (.timestamp(let value), _): return RuleTime.renderTimestamp(value)
        case (.enumeration(let ordinal), .enumeration(let enumType)): return enumType.caseName(ordinal)
        case (.enumeration(let ordinal), _): return "#\(ordinal)"
        case (.list(let items), let listType):
            var element = RuleType.bool
            if case .list(let inner) = listType { element = inner }
            let shown = items.prefix(10).map { $0.rendered(as: element) }
            return "[" + shown.joined(separator: ", ") + (items.count > 10 ? ", … (\(items.count) items)]" : "]")
        case (.map(let entries), let mapType):
            var valueType = RuleType.bool
            if case .map(let inner) = mapType { valueType = inner }
            let shown = entries.keys.sorted().map { "\($0): \(entries[$0]!.rendered(as: valueType))" }
            return "{" + shown.joined(separator: ", ") + "}"
        case (.record(let slots), .record(let record)):
            var parts: [String] = []
            for (field, value) in zip(record.fields, slots) where value != .absent {
                parts.append("\(field.name): \(value.rendered(as: field.type))")
            }
            return "{" + parts.joined(separator: ", ") + "}"
        case (.record(let slots), _): return "{\(slots.count) fields}"
        case (.table(let table), _): return RuleValue.list(table.rows).rendered(as: .list(.record(table.record)))
        case (.absent, _): return "missing"
        }
    }
}
