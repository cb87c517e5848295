import AppStoreServer
import Foundation
import RuleEngine

/// "Facts the rules saw" as a table: one row per fact, named by its path as rules write it
/// (`subscription.price`, `customer.lifetimePurchased['USD']`), nested records as further dotted
/// rows, and each list as a table of its own (one row per item; a column per field for a list of
/// records such as `customer.transactions`).
///
/// How a value is written comes from its type in the facts schema (``FactSchema``, the active
/// bundle's, so the customer attributes it declares are typed too): money as `79.90 USD`,
/// timestamps (stored as epoch milliseconds) as instants, durations as `412d`, enum values by
/// their rule name with Apple's wire value beside it when it differs. A member the schema does not
/// type (an attribute no longer declared) is shown as stored, with one exception: an object of
/// exactly an integer `milliunits` and an ISO 4217 `currency` is money. No integer is ever taken
/// for an instant by its name or size.
struct ConsoleFactsTable {
    /// One value as shown.
    struct Cell {
        var text: String
        /// An instant: rendered in `<time>`.
        var instant: Bool = false
        /// A placeholder (absent, empty, null) rather than a value: shown muted.
        var placeholder: Bool = false
        /// Said after the value, muted: an enum value's wire spelling.
        var note: String?
    }

    struct Item {
        var cells: [Cell]
    }

    /// A list's items, one row each.
    struct List {
        var count: String
        var columns: [String]
        var items: [Item]
    }

    /// A fact: a value, or a list.
    struct Row {
        var path: String
        var value: Cell?
        var list: List?
    }

    var rows: [Row]

    /// The table of a facts document.
    init(facts: JSONValue, schema: FactSchema) {
        var rows: [Row] = []
        Self.visit(facts, .record(schema.document), path: "", into: &rows)
        self.rows = rows
    }

    /// Appends the rows of `value`, of `type` when the schema knows it, at `path`.
    private static func visit(_ value: JSONValue, _ type: RuleType?, path: String, into rows: inout [Row]) {
        let type = type?.unwrapped
        switch (value, type) {
        case (.object(let members), .record(let record)?):
            // The record's fields in their declared order, then any member it does not declare.
            let declared = record.fields.map(\.name).filter { members[$0] != nil }
            let others = Set(members.keys).subtracting(declared).sorted()
            visitMembers(members, declared + others, path: path, into: &rows) { record.field(named: $0)?.type }
        case (.object(let members), .map(let element)?):
            guard !members.isEmpty else { return rows.append(Row(path: path, value: Cell(text: "none", placeholder: true))) }
            for key in members.keys.sorted() {
                visit(members[key] ?? .null, element, path: "\(path)['\(key)']", into: &rows)
            }
        case (.object(let members), nil) where money(value) == nil:
            visitMembers(members, members.keys.sorted(), path: path, into: &rows) { _ in nil }
        case (.array(let items), nil), (.array(let items), .list?):
            var element: RuleType?
            if case .list(let inner)? = type { element = inner }
            guard !items.isEmpty else { return rows.append(Row(path: path, value: Cell(text: "none (empty list)", placeholder: true))) }
            rows.append(Row(path: path, list: list(items, element?.unwrapped)))
        default:
            rows.append(Row(path: path, value: cell(value, type)))
        }
    }

    /// The rows of an object's members, in `order` (an empty object: one row saying so).
    private static func visitMembers(
        _ members: [String: JSONValue], _ order: [String], path: String, into rows: inout [Row], type: (String) -> RuleType?
    ) {
        if members.isEmpty, !path.isEmpty { rows.append(Row(path: path, value: Cell(text: "none", placeholder: true))) }
        for key in order {
            visit(members[key] ?? .null, type(key), path: path.isEmpty ? key : "\(path).\(key)", into: &rows)
        }
    }

    /// A list's table: for records (typed, or objects the schema does not type), a column per
    /// field; otherwise one column of values.
    private static func list(_ items: [JSONValue], _ element: RuleType?) -> List {
        let count = items.count == 1 ? "1 item" : "\(items.count) items"
        var record: RuleRecord?
        if case .record(let declared)? = element { record = declared }
        let objects = items.compactMap(\.objectValue)
        guard record != nil || (element == nil && objects.count == items.count && !items.contains { money($0) != nil }) else {
            return List(count: count, columns: ["value"], items: items.map { Item(cells: [cell($0, element)]) })
        }
        let present = Set(objects.flatMap(\.keys))
        let declared = (record?.fields ?? []).map(\.name).filter(present.contains)
        let columns = declared + present.subtracting(declared).sorted()
        return List(count: count, columns: columns, items: items.map { item in
            guard let members = item.objectValue else {
                return Item(cells: [cell(item, nil)] + columns.dropFirst().map { _ in Cell(text: "—", placeholder: true) })
            }
            return Item(cells: columns.map { column in
                members[column].map { cell($0, record?.field(named: column)?.type.unwrapped) } ?? Cell(text: "—", placeholder: true)
            })
        })
    }

    /// One value, written as its type says.
    private static func cell(_ value: JSONValue, _ type: RuleType?) -> Cell {
        switch (type, value) {
        case (.money?, _), (nil, .object):
            if let amount = money(value, anyCurrency: type != nil) { return Cell(text: amount) }
        case (.timestamp?, .integer(let millis)):
            return Cell(text: ConsoleFormat.instant(millis), instant: true)
        case (.duration?, .integer(let millis)):
            return Cell(text: RuleTime.renderDuration(millis))
        case (.enumeration(let rule)?, .string), (.enumeration(let rule)?, .integer):
            let wire = value.stringValue ?? value.integerValue.map(String.init) ?? ""
            guard let ordinal = rule.ordinal(decoding: wire) else { return Cell(text: wire, note: "not a value Verdict knows") }
            let name = rule.caseName(ordinal)
            return Cell(text: name, note: name == wire ? nil : wire)
        default:
            break
        }
        switch value {
        case .string(let text): return text.isEmpty ? Cell(text: "empty", placeholder: true) : Cell(text: text)
        case .integer(let number): return Cell(text: String(number))
        case .number(let number): return Cell(text: String(number))
        case .bool(let flag): return Cell(text: flag ? "true" : "false")
        case .null: return Cell(text: "null", placeholder: true)
        case .array, .object: return Cell(text: compactJSON(value))
        }
    }

    /// `{"milliunits": 7990, "currency": "USD"}` as `79.90 USD`; nil for anything else. Without the
    /// schema's word for it (`anyCurrency` false), only exactly those two members with a
    /// three-capital-letter code count.
    private static func money(_ value: JSONValue, anyCurrency: Bool = false) -> String? {
        guard let members = value.objectValue, case .integer(let milliunits)? = members["milliunits"],
              let currency = members["currency"]?.stringValue
        else { return nil }
        guard anyCurrency || (members.count == 2 && Money.isCurrencyCode(currency)) else { return nil }
        return ConsoleFormat.money(milliunits: milliunits, currency: currency)
    }

    private static func compactJSON(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
