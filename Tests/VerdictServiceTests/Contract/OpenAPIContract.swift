import AppStoreServer
import Foundation
import Yams

/// The service's HTTP contract, `Sources/VerdictService/Resources/openapi.yaml`, as a checker of
/// real answers: the operation a method and path name, whether the status is documented, and
/// whether a JSON body conforms to the documented schema (the JSON Schema keywords the document
/// uses: types, enums, required and additional properties, lengths, bounds, patterns, items,
/// `oneOf`/`anyOf`/`allOf` and `$ref`). Every answer the service suites receive is checked.
struct OpenAPIContract: Sendable {
    /// The repository's document, loaded once.
    static let service: OpenAPIContract = {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/VerdictService/Resources/openapi.yaml")
        do {
            return try OpenAPIContract(yaml: String(contentsOf: file, encoding: .utf8))
        } catch {
            fatalError("the OpenAPI document does not load: \(error)")
        }
    }()

    /// The document, converted once from YAML to a typed tree (so checking an answer walks
    /// enums, not `Any` casts).
    private let document: JSONValue
    /// Compiled `pattern`s, by their source (a document has a handful).
    private let patterns: [String: NSRegularExpression]

    init(yaml: String) throws {
        guard let tree = try Yams.load(yaml: yaml), case .object = Self.json(tree) else {
            throw ContractViolation("the document is not a mapping")
        }
        document = Self.json(tree)
        var patterns: [String: NSRegularExpression] = [:]
        Self.collectPatterns(document, into: &patterns)
        self.patterns = patterns
    }

    /// The document's path templates and their operations (`GET /v1/decisions/{decisionId}`).
    var operations: Set<String> {
        var result: Set<String> = []
        for (path, item) in paths {
            for method in item.objectValue?.keys ?? [:].keys where Self.methods.contains(method) {
                result.insert("\(method.uppercased()) \(path)")
            }
        }
        return result
    }

    /// The roles an operation (`GET /v1/decisions`) admits: its `x-roles`; nil when it has none.
    func roles(of operation: String) -> Set<String>? {
        let parts = operation.split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let roles = paths[parts[1]]?[parts[0].lowercased()]?["x-roles"]?.arrayValue else { return nil }
        return Set(roles.compactMap(\.stringValue))
    }

    /// What is wrong with this answer, or nothing when it conforms.
    func violations(method: String, path: String, status: Int, body: Data) -> [String] {
        let bare = String(path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        // The console's HTML pages are not part of the API (ConsoleTests check them).
        if bare == "/console" || bare.hasPrefix("/console/") { return [] }
        guard let template = template(for: bare) else {
            // A path the service does not serve is 404, with the API's error body.
            return status == 404 ? [] : ["\(method) \(bare) → \(status): the path is not in the document"]
        }
        let where_ = "\(method) \(template) → \(status)"
        // Methods are case-sensitive: the document's `get` is the request method GET, never `get`.
        guard method == method.uppercased(), let operation = paths[template]?[method.lowercased()] else {
            // A method the path does not serve is answered 405, which the document need not list.
            return status == 405 ? [] : ["\(where_): the method is not in the document"]
        }
        let responses = operation["responses"]?.objectValue ?? [:]
        let key = [String(status), "\(status / 100)XX", "default"].first { responses[$0] != nil }
        guard let key, let response = resolve(responses[key]) else {
            return ["\(where_): the status is not documented (documented: \(responses.keys.sorted().joined(separator: ", ")))"]
        }
        guard let content = response["content"] else {
            return body.isEmpty ? [] : ["\(where_): a body is sent but none is documented"]
        }
        guard let json = content["application/json"] else { return [] }
        guard let value = JSONValue.parse(body) else { return ["\(where_): the body is not JSON"] }
        guard let schema = json["schema"] else { return [] }
        var problems: [String] = []
        check(value, against: schema, at: "body", into: &problems)
        return problems.map { "\(where_): \($0)" }
    }

    // MARK: Paths

    private static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "options", "head", "trace"]

    private var paths: [String: JSONValue] { document["paths"]?.objectValue ?? [:] }

    /// The document's path template matching `path`; literal segments win over parameters.
    private func template(for path: String) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        let candidates = paths.keys.filter { template in
            let parts = template.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == segments.count else { return false }
            return zip(parts, segments).allSatisfy { part, segment in
                (part.hasPrefix("{") && part.hasSuffix("}") && !segment.isEmpty) || part == segment
            }
        }
        return candidates.min { $0.filter { $0 == "{" }.count < $1.filter { $0 == "{" }.count }
    }

    // MARK: Schemas

    /// Follows `$ref: '#/components/…'`.
    private func resolve(_ node: JSONValue?) -> JSONValue? {
        guard let reference = node?["$ref"]?.stringValue else { return node }
        var current: JSONValue? = document
        for part in reference.dropFirst(2).split(separator: "/") { current = current?[String(part)] }
        return resolve(current)
    }

    private func check(_ value: JSONValue, against node: JSONValue, at location: String, into problems: inout [String]) {
        guard let schema = resolve(node), case .object = schema else { return }
        if let types = schema["type"] {
            let allowed = types.arrayValue?.compactMap(\.stringValue) ?? [types.stringValue ?? ""]
            guard allowed.contains(where: { Self.value(value, is: $0) }) else {
                problems.append("\(location) is \(Self.describe(value)), the document says \(allowed.joined(separator: " or "))")
                return
            }
        }
        if let options = schema["enum"]?.arrayValue, !options.contains(value) {
            problems.append("\(location) = \(Self.describe(value)) is not one of \(options.map(Self.describe))")
        }
        if let constant = schema["const"], constant != value { problems.append("\(location) is not \(Self.describe(constant))") }
        for part in schema["allOf"]?.arrayValue ?? [] { check(value, against: part, at: location, into: &problems) }
        for keyword in ["oneOf", "anyOf"] {
            guard let options = schema[keyword]?.arrayValue else { continue }
            let matching = options.filter { option in
                var inner: [String] = []
                check(value, against: option, at: location, into: &inner)
                return inner.isEmpty
            }.count
            if matching == 0 || (keyword == "oneOf" && matching > 1) {
                problems.append("\(location) matches \(matching) of the \(keyword) alternatives")
            }
        }
        switch value {
        case .string(let text):
            // Lengths count code points, as JSON Schema does.
            let length = text.unicodeScalars.count
            if let minimum = schema["minLength"]?.integerValue, length < minimum { problems.append("\(location) is shorter than \(minimum)") }
            if let maximum = schema["maxLength"]?.integerValue, length > maximum { problems.append("\(location) is longer than \(maximum)") }
            if let pattern = schema["pattern"]?.stringValue, let regex = patterns[pattern],
               regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil {
                problems.append("\(location) '\(text)' does not match \(pattern)")
            }
        case .integer, .number:
            let number = Self.number(value) ?? 0
            if let minimum = schema["minimum"].flatMap(Self.number), number < minimum { problems.append("\(location) is below \(minimum)") }
            if let maximum = schema["maximum"].flatMap(Self.number), number > maximum { problems.append("\(location) is above \(maximum)") }
        case .array(let items):
            if let minimum = schema["minItems"]?.integerValue, items.count < minimum { problems.append("\(location) has fewer than \(minimum) items") }
            if let maximum = schema["maxItems"]?.integerValue, items.count > maximum { problems.append("\(location) has more than \(maximum) items") }
            if let itemSchema = schema["items"] {
                for (index, item) in items.enumerated() { check(item, against: itemSchema, at: "\(location)[\(index)]", into: &problems) }
            }
        case .object(let members):
            for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[name] == nil {
                problems.append("\(location).\(name) is required but missing")
            }
            let properties = schema["properties"]?.objectValue ?? [:]
            for (name, member) in members {
                if let property = properties[name] {
                    check(member, against: property, at: "\(location).\(name)", into: &problems)
                } else if let additional = schema["additionalProperties"] {
                    if additional == .bool(false) {
                        problems.append("\(location).\(name) is not a documented property")
                    } else if case .object = additional {
                        check(member, against: additional, at: "\(location).\(name)", into: &problems)
                    }
                }
            }
        case .bool, .null:
            break
        }
    }

    private static func value(_ value: JSONValue, is type: String) -> Bool {
        switch (type, value) {
        case ("string", .string), ("boolean", .bool), ("array", .array), ("object", .object), ("null", .null), ("integer", .integer),
             ("number", .integer), ("number", .number): true
        case ("integer", .number(let number)): number.rounded() == number
        default: false
        }
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let whole): Double(whole)
        case .number(let real): real
        default: nil
        }
    }

    private static func describe(_ value: JSONValue) -> String {
        String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self).prefix(120).description
    }

    /// A YAML value (Yams' `Any` tree) as JSON.
    private static func json(_ yaml: Any) -> JSONValue {
        switch yaml {
        case let flag as Bool: .bool(flag)
        case let whole as Int: .integer(Int64(whole))
        case let real as Double: .number(real)
        case let text as String: .string(text)
        case let list as [Any]: .array(list.map(json))
        case let map as [String: Any]: .object(map.mapValues(json))
        default: .null
        }
    }

    private static func collectPatterns(_ node: JSONValue, into patterns: inout [String: NSRegularExpression]) {
        switch node {
        case .object(let members):
            if let pattern = members["pattern"]?.stringValue, patterns[pattern] == nil {
                patterns[pattern] = try? NSRegularExpression(pattern: pattern)
            }
            members.values.forEach { collectPatterns($0, into: &patterns) }
        case .array(let items):
            items.forEach { collectPatterns($0, into: &patterns) }
        default:
            break
        }
    }
}

/// A contract the document itself breaks (it does not load).
struct ContractViolation: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

private extension JSONValue {
    /// The member `key` of an object (nil for anything else).
    subscript(key: String) -> JSONValue? { objectValue?[key] }
}
