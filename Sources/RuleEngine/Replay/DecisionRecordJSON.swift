#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a replay reads of a stored decision record, `{"decision": …, "explanation": "…",
/// "facts": …}` (other members skipped unread), in one pass over the text: the decision without
/// its condition trace, which a replay never reads (it re-decides, and explains its examples
/// anew) and which is most of a record's decision; the explanation; and where the facts are, to
/// be typed straight from the text (``ReplayFactTyper/type(_:factsOf:)``) or read as ``FactData``.
public struct DecisionRecordJSON: Sendable {
    /// Why a record cannot be read.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The recorded decision, its `trace` empty.
    public var decision: Decision
    /// The recorded explanation text, when there is one.
    public var explanation: String?
    /// The record's text, and where in it (UTF-8 offsets) the facts are: valid JSON.
    private let json: String
    private let factsRange: Range<Int>

    /// Reads `json`.
    public init(_ json: String) throws(Failure) {
        var decisionRange: Range<Int>?
        var decisionTree: FactData?
        var explanation: String?
        var factsRange: Range<Int>?
        do {
            try JSONReader.reading(json) { (reader: inout JSONReader) throws(JSONReader.Failure) in
                try reader.members { (reader: inout JSONReader, key: JSONReader.Key) throws(JSONReader.Failure) in
                    switch key.text {
                    case "decision": (decisionRange, decisionTree) = try Self.decision(&reader)
                    case "explanation":
                        switch try reader.value() {
                        case .string(let text): explanation = text
                        case .null: explanation = nil
                        default: throw JSONReader.Failure(offset: reader.position, message: "the explanation is not text")
                        }
                    case "facts": factsRange = try reader.skipValue()
                    default: try reader.skipValue()
                    }
                }
                try reader.end()
            }
        } catch {
            throw Failure(description: "not a decision record: \(error)")
        }
        guard let decisionRange, let factsRange else {
            throw Failure(description: "the record has no \(decisionRange == nil ? "decision" : "facts")")
        }
        if let decisionTree, let decision = try? Decision(tree: decisionTree) {
            self.decision = decision
        } else {
            // Anything but what the encoder writes: Foundation's decoder decides, and names the error.
            let decisionJSON: [UInt8]
            do {
                decisionJSON = try JSONReader.reading(json, range: decisionRange) {
                    (reader: inout JSONReader) throws(JSONReader.Failure) in try Self.withoutTrace(&reader)
                }
            } catch {
                throw Failure(description: "not a decision record: \(error)")
            }
            do {
                decision = try JSONDecoder().decode(Decision.self, from: Data(decisionJSON))
            } catch {
                throw Failure(description: "its decision cannot be read (\(error))")
            }
        }
        self.explanation = explanation
        self.json = json
        self.factsRange = factsRange
    }

    /// The facts the decision saw, untyped.
    public func facts() -> FactData {
        // The range was read as a value already: it parses.
        (try? JSONReader.reading(json, range: factsRange) { (reader: inout JSONReader) throws(JSONReader.Failure) in
            try reader.document()
        }) ?? .null
    }

    /// The facts typed with `schema`, straight from the text: the same as typing ``facts()``.
    func typedFacts(schema: FactSchema) -> Result<Facts, FactsError> {
        Result { () throws(FactsError) in try Facts(json: json, range: factsRange, schema: schema) }
    }

    /// The decision at the reader: where it is, and its members but the trace as a tree (nil
    /// when it is not an object).
    private static func decision(_ reader: inout JSONReader) throws(JSONReader.Failure) -> (Range<Int>, FactData?) {
        guard try reader.peekObject() else { return (try reader.skipValue(), nil) }
        var entries: [String: FactData] = [:]
        let range = try reader.measuring { (reader: inout JSONReader) throws(JSONReader.Failure) in
            try reader.members { (reader: inout JSONReader, key: JSONReader.Key) throws(JSONReader.Failure) in
                // The trace is skipped by its structure: the replay never reads it.
                guard !key.matches("trace") else {
                    try reader.skipStructure()
                    return
                }
                let value = try reader.value()
                let name = key.text
                if entries[name] == nil { entries[name] = value }
            }
        }
        return (range, .object(entries))
    }

    /// The decision object at the reader, copied without its `trace` member (an empty one instead).
    private static func withoutTrace(_ reader: inout JSONReader) throws(JSONReader.Failure) -> [UInt8] {
        var copy: [UInt8] = [UInt8(ascii: "{")]
        let bytes = reader.bytes
        try reader.members { (reader: inout JSONReader, key: JSONReader.Key) throws(JSONReader.Failure) in
            guard !key.matches("trace") else {
                try reader.skipStructure()
                return
            }
            let value = try reader.skipValue()
            // The key as written, escapes and all.
            copy.append(UInt8(ascii: "\""))
            copy.append(contentsOf: key.bytes)
            copy.append(contentsOf: #"":"#.utf8)
            copy.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[value]))
            copy.append(UInt8(ascii: ","))
        }
        copy.append(contentsOf: #""trace":[]}"#.utf8)
        return copy
    }
}
