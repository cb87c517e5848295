/// Types a ``FactData`` tree against schema types, naming the path of every bad value.
struct FactsDecoder {
    /// One step from the document root to a value.
    private enum Step {
        case field(String)
        case index(Int)
    }

    let strictEnums: Bool
    /// Where the value being typed is, kept as steps: rendered only for an error.
    private var steps: [Step] = []
    /// Strings read from JSON text so far (a few): a document repeats its product ids,
    /// currencies and enumeration values, each then made once.
    var strings: [String] = []

    init(strictEnums: Bool) {
        self.strictEnums = strictEnums
    }

    /// The flat cells of a record (see ``RuleRecord/cellOffsets``); absent data gives absent cells.
    mutating func decodeCells(_ data: FactData, _ record: RuleRecord) throws(FactsError) -> [RuleValue] {
        var cells: [RuleValue] = []
        cells.reserveCapacity(record.cellCount)
        try appendCells(data, record, to: &cells)
        return cells
    }

    private mutating func appendCells(_ data: FactData, _ record: RuleRecord, to cells: inout [RuleValue]) throws(FactsError) {
        var entries: [String: FactData] = [:]
        switch data {
        case .null: break
        case .object(let object): entries = object
        default: throw mismatch(data, "an object with fields of \(record.name)")
        }
        if entries.keys.contains(where: { record.index(of: $0) == nil }) {
            // The first unknown key in name order, as the error has always named it.
            let key = entries.keys.filter { record.index(of: $0) == nil }.sorted()[0]
            let guess = DidYouMean.suggestion(for: key, among: record.fields.map(\.name))
            throw FactsError(path: path(then: .field(key)), message: "\(record.name) has no field '\(key)'",
                             suggestion: guess.map { "did you mean \($0)?" })
        }
        for field in record.fields {
            let value = entries[field.name] ?? .null
            steps.append(.field(field.name))
            if case .record(let nested) = field.type {
                try appendCells(value, nested, to: &cells)
            } else if let nested = RuleRecord.optionalRecord(field.type) {
                if case .null = value {
                    cells.append(.absent)
                } else {
                    cells.append(RecordTable.presentRecord)
                }
                try appendCells(value, nested, to: &cells)
            } else {
                cells.append(try decode(value, as: field.type))
            }
            steps.removeLast()
        }
    }

    /// `data` typed as `type`.
    mutating func decode(_ data: FactData, as type: RuleType) throws(FactsError) -> RuleValue {
        if case .null = data {
            if case .list(.record(let record)) = type.unwrapped { return .table(RecordTable(record: record, cells: [])) }
            if case .list = type.unwrapped { return .list([]) }
            if case .map = type { return .map([:]) }
            if case .record(let record) = type.unwrapped { return RecordTable.nest(record, try decodeCells(.null, record), at: 0) }
            return .absent
        }
        switch type.unwrapped {
        case .bool:
            switch data {
            case .bool(let value): return .bool(value)
            case .string("true"): return .bool(true)
            case .string("false"): return .bool(false)
            default: throw mismatch(data, "true or false")
            }
        case .int:
            switch data {
            case .int(let value): return .int(value)
            case .string(let text): if let value = Int64(text) { return .int(value) }
            default: break
            }
            throw mismatch(data, "a whole number")
        case .string:
            switch data {
            case .string(let text): return .string(text)
            case .int(let value): return .string(String(value))
            default: throw mismatch(data, "a string")
            }
        case .money:
            return try decodeMoney(data)
        case .duration:
            switch data {
            case .int(let value): return .duration(value)
            case .string(let text): if let value = RuleTime.parseDuration(text) { return .duration(value) }
            default: break
            }
            throw mismatch(data, "a duration such as 400d, 36h, 90m, 30s (or milliseconds)")
        case .timestamp:
            switch data {
            case .int(let value): return .timestamp(value)
            case .string(let text):
                if let value = RuleTime.parseTimestamp(text) { return .timestamp(value) }
                if let value = Int64(text) { return .timestamp(value) }
            default: break
            }
            throw mismatch(data, "a date such as 2026-11-25 or 2026-11-25T10:00:00Z (or epoch milliseconds)")
        case .enumeration(let ruleEnum):
            return try decodeEnum(data, ruleEnum)
        case .list(.record(let record)):
            guard case .list(let items) = data else { throw mismatch(data, "a list") }
            var cells: [RuleValue] = []
            cells.reserveCapacity(items.count * record.cellCount)
            for (offset, item) in items.enumerated() {
                steps.append(.index(offset))
                try appendCells(item, record, to: &cells)
                steps.removeLast()
            }
            return .table(RecordTable(record: record, cells: cells))
        case .list(let element):
            guard case .list(let items) = data else { throw mismatch(data, "a list") }
            var values: [RuleValue] = []
            values.reserveCapacity(items.count)
            for (offset, item) in items.enumerated() {
                steps.append(.index(offset))
                values.append(try decode(item, as: element))
                steps.removeLast()
            }
            return .list(values)
        case .map(let valueType):
            guard case .object(let entries) = data else { throw mismatch(data, "an object") }
            var values: [String: RuleValue] = [:]
            for key in entries.keys.sorted() {
                steps.append(.field(key))
                let value = try decode(entries[key] ?? .null, as: valueType)
                // A per-currency money table: each entry is in its key's currency.
                if case .money(let money) = value, money.currency != key {
                    throw FactsError(path: path(), message: "expected money in \(key) (the entry's key), got \(money)")
                }
                steps.removeLast()
                values[key] = value
            }
            return .map(values)
        case .record(let record):
            return RecordTable.nest(record, try decodeCells(data, record), at: 0)
        case .optional:
            preconditionFailure("unwrapped above")
        }
    }

    private func decodeMoney(_ data: FactData) throws(FactsError) -> RuleValue {
        switch data {
        case .string(let text):
            if let money = Money(parsing: text) { return .money(money) }
        case .object(let entries):
            var milliunits: Int64?
            switch entries["milliunits"] {
            case .int(let value): milliunits = value
            case .string(let text): milliunits = Int64(text)
            default: break
            }
            if let milliunits, case .string(let currency) = entries["currency"], Money.isCurrencyCode(currency),
               entries.count == 2 {
                return .money(Money(milliunits: milliunits, currency: currency))
            }
        default: break
        }
        throw mismatch(data, "money such as '9.99 USD' or {milliunits: 9990, currency: USD}")
    }

    private func decodeEnum(_ data: FactData, _ ruleEnum: RuleEnum) throws(FactsError) -> RuleValue {
        switch data {
        case .string(let value): return try decodeEnum(value, ruleEnum)
        case .int(let value): return try decodeEnum(String(value), ruleEnum)
        default: throw mismatch(data, "one of \(ruleEnum.name)'s values")
        }
    }

    /// The case of `ruleEnum` written `text` (a case name or Apple's wire value).
    func decodeEnum(_ text: String, _ ruleEnum: RuleEnum) throws(FactsError) -> RuleValue {
        if let ordinal = ruleEnum.ordinal(decoding: text) { return .enumeration(ordinal) }
        guard strictEnums else { return .enumeration(RuleEnum.unrecognizedOrdinal) }
        let guess = DidYouMean.suggestion(for: text, among: ruleEnum.caseNames)
        throw FactsError(path: path(), message: "unknown \(ruleEnum.name) value '\(text)'",
                         suggestion: guess.map { "did you mean \($0)?" })
    }

    private func mismatch(_ data: FactData, _ expected: String) -> FactsError {
        let got: String
        switch data {
        case .null: got = "nothing"
        case .bool(let value): got = String(value)
        case .int(let value): got = String(value)
        case .string(let value): got = "'\(value)'"
        case .decimal(let value): got = "the decimal number \(value)"
        case .list: got = "a list"
        case .object: got = "an object"
        }
        return FactsError(path: path(), message: "expected \(expected), got \(got)")
    }

    /// The dotted path of the value being typed (`customer.transactions[3].price`), then `step`.
    private func path(then step: Step? = nil) -> String {
        var text = ""
        for step in steps + (step.map { [$0] } ?? []) {
            switch step {
            case .field(let name): text = text.isEmpty ? name : text + "." + name
            case .index(let offset): text += "[\(offset)]"
            }
        }
        return text
    }
}
