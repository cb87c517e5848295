/// A list of records stored as one flat array of cells, row after row (`cellCount` cells per
/// row, laid out as ``RuleRecord/cellOffsets`` says). Macros walk a table by row index, so
/// reading `t.price` for each transaction is one array read with no reference counting.
public final class RecordTable: Hashable, Sendable {
    /// The record type of each row.
    public let record: RuleRecord
    /// The number of rows.
    public let count: Int
    /// All cells, row-major: row `r`, cell `c` is `cells[r * record.cellCount + c]`.
    public let cells: [RuleValue]
    /// The first cell of ``cells``' storage (nil when empty), for macro row reads that borrow a
    /// cell instead of retaining the table and the array on every read. Valid as long as the
    /// table lives: `cells` is immutable, so its buffer never moves.
    nonisolated(unsafe) let base: UnsafePointer<RuleValue>?

    public init(record: RuleRecord, cells: [RuleValue]) {
        precondition(record.cellCount == 0 || cells.count % record.cellCount == 0, "a table holds whole rows")
        self.record = record
        self.cells = cells
        self.count = record.cellCount == 0 ? 0 : cells.count / record.cellCount
        self.base = cells.isEmpty ? nil : self.cells.withUnsafeBufferPointer { $0.baseAddress }
    }

    /// The rows as nested ``RuleValue/record(_:)`` values (for display and tests, not evaluation).
    public var rows: [RuleValue] {
        (0..<count).map { row in
            RecordTable.nest(record, Array(cells[(row * record.cellCount)..<((row + 1) * record.cellCount)]), at: 0)
        }
    }

    /// A new table of the given rows, in order.
    func selecting(_ rows: [Int]) -> RecordTable {
        let width = record.cellCount
        var selected: [RuleValue] = []
        selected.reserveCapacity(rows.count * width)
        for row in rows { selected.append(contentsOf: cells[(row * width)..<((row + 1) * width)]) }
        return RecordTable(record: record, cells: selected)
    }

    /// The presence cell of an optional nested record that is present (see ``RuleRecord``).
    static let presentRecord = RuleValue.bool(true)

    /// Rebuilds a nested ``RuleValue/record(_:)`` from flat cells starting at `start`; an absent
    /// optional nested record is ``RuleValue/absent``.
    static func nest(_ record: RuleRecord, _ cells: [RuleValue], at start: Int) -> RuleValue {
        var slots: [RuleValue] = []
        for (field, offset) in zip(record.fields, record.cellOffsets) {
            if case .record(let nested) = field.type {
                slots.append(nest(nested, cells, at: start + offset))
            } else if let nested = RuleRecord.optionalRecord(field.type) {
                slots.append(cells[start + offset] == .absent ? .absent : nest(nested, cells, at: start + offset + 1))
            } else {
                slots.append(cells[start + offset])
            }
        }
        return .record(slots)
    }

    public static func == (lhs: RecordTable, rhs: RecordTable) -> Bool {
        lhs === rhs || (lhs.record == rhs.record && lhs.cells == rhs.cells)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(record.name)
        hasher.combine(cells)
    }
}
