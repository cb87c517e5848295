extension FactsDecoder {
    /// A document the direct reading leaves to the ``FactData`` path: not valid facts, or shaped
    /// unusually (duplicate keys, unknown fields). That path decides, and names the error.
    private struct Unusual: Error {}

    /// The flat cells of a facts document read straight from JSON text, without building the
    /// ``FactData`` tree: records are filled field by field as their members come, values
    /// written as the service writes them are typed on the spot, any other through
    /// ``decode(_:as:)`` as ever. Nil when the
    /// text is anything but valid facts — ``decodeCells(_:_:)`` on the tree then gives the same
    /// facts or the error, exactly.
    mutating func decodeCells(reading reader: inout JSONReader, _ record: RuleRecord) -> [RuleValue]? {
        var cells = [RuleValue](repeating: .absent, count: record.cellCount)
        do {
            try fill(&reader, record, into: &cells, at: 0)
            return cells
        } catch {
            return nil
        }
    }

    /// Fills the cells of `record` from `base` with the object (or null) at the reader.
    private mutating func fill(_ reader: inout JSONReader, _ record: RuleRecord, into cells: inout [RuleValue], at base: Int)
        throws {
        // Which fields the object has given, one bit each.
        guard record.fields.count <= 64 else { throw Unusual() }
        var seen: UInt64 = 0
        if try reader.peekNull() {
            try reader.skipValue()
        } else {
            guard try reader.peekObject() else { throw Unusual() }
            try reader.enterObject()
            var first = true
            while let key = try reader.nextKey(first: first) {
                first = false
                guard let index = record.fields.firstIndex(where: { key.matches($0.name) }), seen & (1 << index) == 0 else {
                    throw Unusual()
                }
                seen |= 1 << index
                let type = record.fields[index].type
                if case .record(let nested) = type {
                    try fill(&reader, nested, into: &cells, at: base + record.cellOffsets[index])
                } else if let nested = RuleRecord.optionalRecord(type) {
                    cells[base + record.cellOffsets[index]] = try reader.peekNull() ? .absent : RecordTable.presentRecord
                    try fill(&reader, nested, into: &cells, at: base + record.cellOffsets[index] + 1)
                } else {
                    cells[base + record.cellOffsets[index]] = try value(&reader, as: type)
                }
            }
        }
        // Fields the object leaves out read as they do when absent.
        for (index, field) in record.fields.enumerated() where seen & (1 << index) == 0 {
            if case .record(let nested) = field.type {
                for (offset, cell) in try decodeCells(.null, nested).enumerated() {
                    cells[base + record.cellOffsets[index] + offset] = cell
                }
            } else if let nested = RuleRecord.optionalRecord(field.type) {
                cells[base + record.cellOffsets[index]] = .absent
                for (offset, cell) in try decodeCells(.null, nested).enumerated() {
                    cells[base + record.cellOffsets[index] + 1 + offset] = cell
                }
            } else {
                cells[base + record.cellOffsets[index]] = try decode(.null, as: field.type)
            }
        }
    }

    /// A field's value at the reader, typed: lists of records, money, strings, enumerations and
    /// whole numbers read directly, anything else read as ``FactData`` and typed by
    /// ``decode(_:as:)``.
    private mutating func value(_ reader: inout JSONReader, as type: RuleType) throws -> RuleValue {
        if try reader.peekNull() { return try decode(try reader.value(), as: type) }
        let unwrapped = type.unwrapped
        switch unwrapped {
        case .list(.record(let record)):
            return try table(&reader, of: record)
        case .money where try reader.peekObject():
            return try money(&reader)
        case .string where try reader.peekString():
            return .string(try string(&reader))
        case .enumeration(let ruleEnum) where try reader.peekString():
            return try decodeEnum(try string(&reader), ruleEnum)
        case .int, .timestamp, .duration:
            // Written as the service writes them: whole numbers (milliseconds for instants and durations).
            guard let number = try reader.integer() else { break }
            switch unwrapped {
            case .timestamp: return .timestamp(number)
            case .duration: return .duration(number)
            default: return .int(number)
            }
        default:
            break
        }
        // Anything else (and the same written otherwise, e.g. an instant as text) as a tree.
        return try decode(try reader.value(), as: type)
    }

    /// A list of records at the reader, read row by row into a table.
    private mutating func table(_ reader: inout JSONReader, of record: RuleRecord) throws -> RuleValue {
        guard try reader.peekArray() else { throw Unusual() }
        var cells: [RuleValue] = []
        try reader.enterArray()
        var first = true
        while try reader.nextElement(first: first) {
            first = false
            let base = cells.count
            cells.append(contentsOf: repeatElement(.absent, count: record.cellCount))
            try fill(&reader, record, into: &cells, at: base)
        }
        return .table(RecordTable(record: record, cells: cells))
    }

    /// The string at the reader; one read before with the same bytes is reused.
    private mutating func string(_ reader: inout JSONReader) throws -> String {
        guard let bytes = try reader.plainString() else { return try reader.string() }
        if let known = strings.first(where: { $0.isUTF8(bytes) }) { return known }
        let text = String(decoding: bytes, as: UTF8.self)
        if strings.count < 16 { strings.append(text) }
        return text
    }

    /// Money written as the service writes it, `{"milliunits": 7990, "currency": "USD"}` (in any
    /// order); any other object is left to the ``FactData`` path.
    private func money(_ reader: inout JSONReader) throws -> RuleValue {
        var milliunits: Int64?
        var currency: String?
        try reader.enterObject()
        var first = true
        while let key = try reader.nextKey(first: first) {
            first = false
            if milliunits == nil, key.matches("milliunits"), let value = try reader.integer() {
                milliunits = value
            } else if currency == nil, key.matches("currency"), try reader.peekString() {
                currency = try reader.string()
            } else {
                throw Unusual()
            }
        }
        guard let milliunits, let currency, Money.isCurrencyCode(currency) else { throw Unusual() }
        return .money(Money(milliunits: milliunits, currency: currency))
    }
}
