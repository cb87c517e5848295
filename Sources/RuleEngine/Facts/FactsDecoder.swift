/// Types a ``FactData`` tree against schema types, naming the path of every bad value.
struct FactsDecoder {
    let strictEnums: Bool

    /// The flat cells of a record (see ``RuleRecord/cellOffsets``); absent data gives absent cells.
    func decodeCells(_ data: FactData, _ record: RuleRecord, path: String) throws(FactsError) -> [RuleValue] {
        var cells: [RuleValue] = []
        cells.reserveCapacity(record.cellCount)
        try appendCells(data, record, path: path, to: &cells)
        return cells
    }

    private func appendCells(_ data: FactData, _ record: RuleRecord, path: String, to cells: inout [RuleValue]) throws(FactsError) {
        var entries: [String: FactData] = [:]
        switch data {
        case .null: break
        case .object(let object): entries = object
        default: throw mismatch(data, "an object with fields of \(record.name)", path)
        }
        for key in entries.keys.sorted() where record.index(of: key) == nil {
            let guess = DidYouMean.suggestion(for: key, among: record.fields.map(\.name))
            throw FactsError(path: join(path, key), message: "\(record.name) has no field '\(key)'",
                             suggestion: guess.map { "did you mean \($0)?" })
        }
        for field in record.fields {
            let value = entries[field.name] ?? .null
            if case .record(let nested) = field.type {
                try appendCells(value, nested, path: join(path, field.name), to: &cells)
            } else {
                cells.append(try decode(value, as: field.type, path: join(path, field.name)))
            }
        }
    }

    func decode(_ data: FactData, as type: RuleType, path: String) throws(FactsError) -> RuleValue {
        if case .null = data {
            if case .list(.record(let record)) = type.unwrapped { return .table(RecordTable(record: record, cells: [])) }
            if case .list = type.unwrapped { return .list([]) }
            if case .map = type { return .map([:]) }
            if case .record(let record) = type.unwrapped { return RecordTable.nest(record, try decodeCells(.null, record, path: path), at: 0) }
            return .absent
        }
        switch type.unwrapped {
        case .bool:
            switch data {
            case .bool(let value): return .bool(value)
            case .string("true"): return .bool(true)
            case .string("false"): return .bool(false)
            default: throw mismatch(data, "true or false", path)
            }
        case .int:
            switch data {
            case .int(let value): return .int(value)
            case .string(let text): if let value = Int64(text) { return .int(value) }
            default: break
            }
            throw mismatch(data, "a whole number", path)
        case .string:
            switch data {
            case .string(let text): return .string(text)
            case .int(let value): return .string(String(value))
            default: throw mismatch(data, "a string", path)
            }
        case .money:
            return try decodeMoney(data, path: path)
        case .duration:
            switch data {
            case .int(let value): return .duration(value)
            case .string(let text): if let value = RuleTime.parseDuration(text) { return .duration(value) }
            default: break
            }
            throw mismatch(data, "a duration such as 400d, 36h, 90m, 30s (or milliseconds)", path)
        case .timestamp:
            switch data {
            case .int(let value): return .timestamp(value)
            case .string(let text):
                if let value = RuleTime.parseTimestamp(text) { return .timestamp(value) }
                if let value = Int64(text) { return .timestamp(value) }
            default: break
            }
            throw mismatch(data, "a date such as 2026-11-25 or 2026-11-25T10:00:00Z (or epoch milliseconds)", path)
        case .enumeration(let ruleEnum):
            return try decodeEnum(data, ruleEnum, path: path)
        case .list(.record(let record)):
            guard case .list(let items) = data else { throw mismatch(data, "a list", path) }
            var cells: [RuleValue] = []
            cells.reserveCapacity(items.count * record.cellCount)
            for (offset, item) in items.enumerated() {
                try appendCells(item, record, path: path + "[\(offset)]", to: &cells)
            }
            return .table(RecordTable(record: record, cells: cells))
        case .list(let element):
            guard case .list(let items) = data else { throw mismatch(data, "a list", path) }
            var values: [RuleValue] = []
            values.reserveCapacity(items.count)
            for (offset, item) in items.enumerated() {
                values.append(try decode(item, as: element, path: path + "[\(offset)]"))
            }
            return .list(values)
        case .map(let valueType):
            guard case .object(let entries) = data else { throw mismatch(data, "an object", path) }
            var values: [String: RuleValue] = [:]
            for key in entries.keys.sorted() {
                let value = try decode(entries[key] ?? .null, as: valueType, path: join(path, key))
                // A per-currency money table: each entry is in its key's currency.
                if case .money(let money) = value, money.currency != key {
                    throw FactsError(path: join(path, key), message: "expected money in \(key) (the entry's key), got \(money)")
                }
                values[key] = value
            }
            return .map(values)
        case .record(let record):
            return RecordTable.nest(record, try decodeCells(data, record, path: path), at: 0)
        case .optional:
            preconditionFailure("unwrapped above")
        }
    }

    private func decodeMoney(_ data: FactData, path: String) throws(FactsError) -> RuleValue {
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
        throw mismatch(data, "money such as '9.99 USD' or {milliunits: 9990, currency: USD}", path)
    }

    private func decodeEnum(_ data: FactData, _ ruleEnum: RuleEnum, path: String) throws(FactsError) -> RuleValue {
        let text: String
        switch data {
        case .string(let value): text = value
        case .int(let value): text = String(value)
        default: throw mismatch(data, "one of \(ruleEnum.name)'s values", path)
        }
        if let ordinal = ruleEnum.ordinal(decoding: text) { return .enumeration(ordinal) }
        guard strictEnums else { return .enumeration(RuleEnum.unrecognizedOrdinal) }
        let guess = DidYouMean.suggestion(for: text, among: ruleEnum.caseNames)
        throw FactsError(path: path, message: "unknown \(ruleEnum.name) value '\(text)'",
                         suggestion: guess.map { "did you mean \($0)?" })
    }

    private func mismatch(_ data: FactData, _ expected: String, _ path: String) -> FactsError {
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
        return FactsError(path: path, message: "expected \(expected), got \(got)")
    }

    private func join(_ path: String, _ name: String) -> String { path.isEmpty ? name : path + "." + name }
}
