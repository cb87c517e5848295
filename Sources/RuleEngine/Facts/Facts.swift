import AppStoreServer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A facts document typed by a ``FactSchema``: what one decision evaluates its rules against.
///
/// Decode it from JSON (the shape the service builds: money as `{"milliunits": 9990, "currency":
/// "USD"}` or `"9.99 USD"`, timestamps as ISO 8601 or epoch milliseconds, durations as `"400d"`
/// / `"36h"` or milliseconds, enums as case names or Apple's wire values) or from YAML test data
/// (every scalar a string, typed by the schema: `59.99 USD`, `400d`, `2026-11-25`; `NO` stays a
/// string). Errors name the path of the bad value.
public struct Facts: Sendable, Hashable {
    /// The schema the document was typed against.
    public let schema: FactSchema
    /// Every fact of the document in one flat array, at the offsets of
    /// `schema.document.cellOffsets` (nested records flattened; lists of records as tables).
    public let cells: [RuleValue]

    /// Types `data` against `schema`. With `strictEnums` (the default) an enum value this version
    /// does not know is an error with a did-you-mean; without, it becomes `UNRECOGNIZED` (for facts
    /// built from live Apple payloads, where Apple may add values).
    public init(_ data: FactData, schema: FactSchema = .standard, strictEnums: Bool = true) throws(FactsError) {
        self.schema = schema
        var decoder = FactsDecoder(strictEnums: strictEnums)
        self.cells = try decoder.decodeCells(data, schema.document)
    }

    /// Types the JSON value in `range` of `text` (UTF-8 offsets) against `schema` straight from
    /// the text: what `Facts(FactData(json:))` gives for it, error included, without building the
    /// untyped tree first (except for text that is not valid facts, typed through the tree to
    /// name its error).
    init(json text: String, range: Range<Int>, schema: FactSchema, strictEnums: Bool = true) throws(FactsError) {
        var decoder = FactsDecoder(strictEnums: strictEnums)
        let cells = JSONReader.reading(text, range: range) { reader in
            decoder.decodeCells(reading: &reader, schema.document).flatMap { cells in
                (try? reader.end()).map { cells }
            }
        }
        if let cells {
            self.init(schema: schema, cells: cells)
            return
        }
        let data: FactData
        do {
            data = try JSONReader.reading(text, range: range) { reader throws(JSONReader.Failure) in try reader.document() }
        } catch {
            throw FactsError(path: "", message: "not valid JSON")
        }
        try self.init(data, schema: schema, strictEnums: strictEnums)
    }

    private init(schema: FactSchema, cells: [RuleValue]) {
        self.schema = schema
        self.cells = cells
    }

    /// Decodes a JSON facts document.
    public init(json: Data, schema: FactSchema = .standard, strictEnums: Bool = true) throws(FactsError) {
        try self.init(FactData(json: json), schema: schema, strictEnums: strictEnums)
    }

    /// Decodes YAML facts text (basic resolver: every scalar a string, typed by the schema).
    public init(yaml: String, schema: FactSchema = .standard, strictEnums: Bool = true) throws(FactsError) {
        try self.init(FactData(yaml: yaml), schema: schema, strictEnums: strictEnums)
    }

    /// The value at a dotted path (`subscription.originalTransactionId`), ``RuleValue/absent`` when
    /// the fact is missing, nil when the path names no fact.
    public func value(at path: String) -> RuleValue? {
        var record = schema.document
        var offset = 0
        let names = path.split(separator: ".")
        for (position, name) in names.enumerated() {
            guard let index = record.index(of: String(name)) else { return nil }
            offset += record.cellOffsets[index]
            let type = record.fields[index].type
            if case .record(let nested) = type {
                record = nested
                if position == names.count - 1 { return RecordTable.nest(nested, cells, at: offset) }
            } else if let nested = RuleRecord.optionalRecord(type) {
                // The presence cell, then the record's cells (absent ones when it is missing).
                if position == names.count - 1 { return cells[offset] == .absent ? .absent : RecordTable.nest(nested, cells, at: offset + 1) }
                record = nested
                offset += 1
            } else {
                return position == names.count - 1 ? cells[offset] : nil
            }
        }
        return RecordTable.nest(record, cells, at: offset)
    }

    /// Whether these are the facts of a Retention Messaging realtime request (`event.type` is
    /// `REALTIME_REQUEST`), which the retention section decides.
    public var isRealtimeRequest: Bool {
        guard case .enumeration(let ordinal)? = value(at: "event.type") else { return false }
        return ordinal == Self.realtimeRequestOrdinal
    }

    private static let realtimeRequestOrdinal = RuleEnum.notificationType.ordinal(named: NotificationTypeV2.realtimeRequest.rawValue)

    /// `event.signedDate` in milliseconds, the default `now`, if present. Read at a precomputed
    /// cell (no path lookup): every decision asks for it.
    public var signedDate: Int64? {
        if case .timestamp(let millis) = cells[Facts.signedDateCell] { return millis }
        return nil
    }

    /// The cell of `event.signedDate`. The same in every schema: only `customer.attributes`
    /// varies between schemas, and `event` comes first.
    private static let signedDateCell: Int = {
        let document = FactSchema.standard.document
        guard let eventIndex = document.index(of: FactDocument.eventField.name),
              case .record(let event) = document.fields[eventIndex].type,
              let dateIndex = event.index(of: FactDocument.Event.signedDateField.name)
        else { preconditionFailure("the standard schema has event.signedDate") }
        return document.cellOffsets[eventIndex] + event.cellOffsets[dateIndex]
    }()
}
