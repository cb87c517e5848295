extension FactsDecoder {
    /// A document the direct reading leaves to the ``FactData`` path: not valid facts, or shaped
    /// unusually (duplicate keys, unknown fields). That path decides, and names the error.
    private struct Unusual: Error {}

    /// The flat cells of a facts document read straight from JSON text, without building the
    /// ``FactData`` tree: records are filled field by field as their members come; leaf values
    /// (scalars, money, lists of scalars, maps) go through ``decode(_:as:)`` as ever. Nil when the
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
        var seen = [Bool](repeating: false, count: record.fields.count)
        if try reader.peekNull() {
            try reader.skipValue()
        } else {
            guard try reader.peekObject() else { throw Unusual() }
            var failure: (any Error)?
            try reader.members { (reader: inout JSONReader, key: JSONReader.Key) throws(JSONReader.Failure) in
                do {
                    guard let index = record.fields.firstIndex(where: { key.matches($0.name) }), !seen[index] else {
                        throw Unusual()
                    }
                    seen[index] = true
                    let field = record.fields[index]
                    if case .record(let nested) = field.type {
                        try fill(&reader, nested, into: &cells, at: base + record.cellOffsets[index])
                    } else {
                        cells[base + record.cellOffsets[index]] = try value(&reader, as: field.type)
                    }
                } catch {
                    failure = error
                    throw JSONReader.Failure(offset: reader.position, message: "left to the FactData path")
                }
            }
            if let failure { throw failure }
        }
        // Fields the object leaves out read as they do when absent.
        for (index, field) in record.fields.enumerated() where !seen[index] {
            if case .record(let nested) = field.type {
                for (offset, cell) in try decodeCells(.null, nested).enumerated() {
                    cells[base + record.cellOffsets[index] + offset] = cell
                }
            } else {
                cells[base + record.cellOffsets[index]] = try decode(.null, as: field.type)
            }
        }
    }

    /// A field's value at the reader: a list of records read row by row into a table, money as
    /// `{"milliunits", "currency"}` read member by member, anything else read as ``FactData``
    /// and typed.
    private mutating func value(_ reader: inout JSONReader, as type: RuleType) throws -> RuleValue {
        if case .money = type.unwrapped, try reader.peekObject() { return try money(&reader) }
        guard case .list(.record(let record)) = type.unwrapped, try !reader.peekNull() else {
            return try decode(try reader.value(), as: type)
        }
        guard try reader.peekArray() else { throw Unusual() }
        var cells: [RuleValue] = []
        var failure: (any Error)?
        try reader.elements { (reader: inout JSONReader) throws(JSONReader.Failure) in
            let base = cells.count
            cells.append(contentsOf: repeatElement(.absent, count: record.cellCount))
            do {
                try fill(&reader, record, into: &cells, at: base)
            } catch {
                failure = error
                throw JSONReader.Failure(offset: reader.position, message: "left to the FactData path")
            }
        }
        if let failure { throw failure }
        return .table(RecordTable(record: record, cells: cells))
    }

    /// Money written as the service writes it, `{"milliunits": 7990, "currency": "USD"}` (in any
    /// order); any other object is left to the ``FactData`` path.
    private func money(_ reader: inout JSONReader) throws -> RuleValue {
        var milliunits: Int64?
        var currency: String?
        try reader.members { (reader: inout JSONReader, key: JSONReader.Key) throws(JSONReader.Failure) in
            switch try reader.value() {
            case .int(let value) where milliunits == nil && key.matches("milliunits"): milliunits = value
            case .string(let code) where currency == nil && key.matches("currency"): currency = code
            default: throw JSONReader.Failure(offset: reader.position, message: "left to the FactData path")
            }
        }
        guard let milliunits, let currency, Money.isCurrencyCode(currency) else { throw Unusual() }
        return .money(Money(milliunits: milliunits, currency: currency))
    }
}
