#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Yams

/// An untyped facts tree as it arrives: from JSON (typed scalars) or from YAML test data read with
/// Yams' basic resolver (every scalar a string). ``Facts`` types it against the ``FactSchema``;
/// the bundle layer deep-merges fixtures with ``deepMerged(with:)`` before typing.
public indirect enum FactData: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case string(String)
    /// A JSON number with a fraction; facts reject it (money is `9.99 USD`, not `9.99`).
    case decimal(Double)
    case list([FactData])
    case object([String: FactData])

    /// Parses JSON text into a tree. Throws ``FactsError`` (path `$`) when it is not valid JSON.
    public init(json: Data) throws(FactsError) {
        do {
            self = try json.withUnsafeBytes { bytes in
                var reader = JSONReader(bytes)
                return try reader.document()
            }
        } catch {
            throw FactsError(path: "", message: "not valid JSON")
        }
    }

    /// Converts a Yams node. Plain scalars `~`, `null` and the empty plain scalar are ``null``;
    /// every other scalar stays a string (so `NO` is the string `NO`).
    public init(yaml node: Node) throws(FactsError) {
        try self.init(yaml: node, path: "")
    }

    /// Composes YAML text with the basic resolver and converts it (an empty document is an empty object).
    public init(yaml text: String) throws(FactsError) {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text, .basic)
        } catch {
            throw FactsError(path: "", message: "not valid YAML: \(error)")
        }
        guard let node else {
            self = .object([:])
            return
        }
        try self.init(yaml: node, path: "")
    }

    private init(yaml node: Node, path: String) throws(FactsError) {
        switch node {
        case .scalar(let scalar):
            if scalar.style == .plain, ["", "~", "null", "Null", "NULL"].contains(scalar.string) {
                self = .null
            } else {
                self = .string(scalar.string)
            }
        case .sequence(let sequence):
            var items: [FactData] = []
            for (offset, item) in sequence.enumerated() {
                items.append(try FactData(yaml: item, path: path + "[\(offset)]"))
            }
            self = .list(items)
        case .mapping(let mapping):
            var entries: [String: FactData] = [:]
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else {
                    throw FactsError(path: path, message: "keys must be plain names")
                }
                let name = keyScalar.string
                let childPath = path.isEmpty ? name : path + "." + name
                guard entries[name] == nil else { throw FactsError(path: childPath, message: "duplicate key") }
                entries[name] = try FactData(yaml: value, path: childPath)
            }
            self = .object(entries)
        case .alias:
            throw FactsError(path: path, message: "YAML aliases are not supported in facts")
        }
    }

    /// `other` laid over `self`: objects merge key by key (recursively); anything else in `other`
    /// replaces what is here (lists are replaced, not concatenated). Used for fixtures' `given`
    /// over `from`.
    public func deepMerged(with other: FactData) -> FactData {
        guard case .object(let base) = self, case .object(let overlay) = other else { return other }
        var merged = base
        for (key, value) in overlay {
            merged[key] = merged[key].map { $0.deepMerged(with: value) } ?? value
        }
        return .object(merged)
    }
}

/// Decodes any JSON value into ``FactData``.
private struct JSONNode: Decodable {
    let data: FactData

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [FactData] = []
            while !array.isAtEnd { items.append(try array.decode(JSONNode.self).data) }
            data = .list(items)
        } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var entries: [String: FactData] = [:]
            for key in object.allKeys { entries[key.stringValue] = try object.decode(JSONNode.self, forKey: key).data }
            data = .object(entries)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                data = .null
            } else if let value = try? single.decode(Bool.self) {
                data = .bool(value)
            } else if let value = try? single.decode(Int64.self) {
                data = .int(value)
            } else if let value = try? single.decode(Double.self) {
                data = .decimal(value)
            } else {
                data = .string(try single.decode(String.self))
            }
        }
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}

extension FactData: Decodable {
    /// Decodes any JSON value (as ``init(json:)`` does), so a facts tree can be a member of a
    /// larger stored document and be read in the same pass.
    public init(from decoder: any Decoder) throws {
        self = try JSONNode(from: decoder).data
    }
}
