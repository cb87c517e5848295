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

    /// The document as a YAML tree (`[String: Any]`, `[Any]`, scalars).
    private let document: SendableTree

    init(yaml: String) throws {
        guard let tree = try Yams.load(yaml: yaml) as? [String: Any] else { throw ContractViolation("the document is not a mapping") }
        document = SendableTree(tree)
    }

    /// The document's path templates and their operations (`GET /v1/decisions/{decisionId}`).
    var operations: Set<String> {
        var result: Set<String> = []
        for (path, item) in paths {
            for method in (item as? [String: Any])?.keys ?? [:].keys where Self.methods.contains(method) {
                result.insert("\(method.uppercased()) \(path)")
            }
        }
        return result
    }

    /// What is wrong with this answer, or nothing when it conforms.
    func violations(method: String, path: String, status: Int, body: Data) -> [String] {
        let bare = String(path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        guard let template = template(for: bare) else {
            // A path the service does not serve is 404, with the API's error body.
            return status == 404 ? [] : ["\(method) \(bare) → \(status): the path is not in the document"]
        }
        let item = paths[template] as? [String: Any] ?? [:]
        let where_ = "\(method) \(template) → \(status)"
        guard let operation = item[method.lowercased()] as? [String: Any] else {
            // A method the path does not serve is answered 405, which the document need not list.
            return status == 405 ? [] : ["\(where_): the method is not in the document"]
        }
        let responses = operation["responses"] as? [String: Any] ?? [:]
        let key = [String(status), "\(status / 100)XX", "default"].first { responses[$0] != nil }
        guard let key, let response = resolve(responses[key]) as? [String: Any] else {
            return ["\(where_): the status is not documented (documented: \(responses.keys.sorted().joined(separator: ", ")))"]
        }
        guard let content = response["content"] as? [String: Any] else {
            return body.isEmpty ? [] : ["\(where_): a body is sent but none is documented"]
        }
        guard let json = content["application/json"] as? [String: Any] else { return [] }
        guard let value = JSONValue.parse(body) else { return ["\(where_): the body is not JSON"] }
        guard let schema = json["schema"] else { return [] }
        var problems: [String] = []
        check(value, against: schema, at: "body", into: &problems)
        return problems.map { "\(where_): \($0)" }
    }

    // MARK: Paths

    private static let methods: Set<String> = ["get", "put", "post", "delete", "patch", "options", "head", "trace"]

    private var paths: [String: Any] { document.value["paths"] as? [String: Any] ?? [:] }

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
    private func resolve(_ node: Any?) -> Any? {
        guard let object = node as? [String: Any], let reference = object["$ref"] as? String else { return node }
        var current: Any? = document.value
        for part in reference.dropFirst(2).split(separator: "/") {
            current = (current as? [String: Any])?[String(part)]
        }
        return resolve(current)
    }

    private func check(_ value: JSONValue, against node: Any, at location: String, into problems: inout [String]) {
        guard let schema = resolve(node) as? [String: Any] else { return }
        if let types = schema["type"] {
            let allowed = (types as? [String]) ?? [(types as? String) ?? ""]
            guard allowed.contains(where: { Self.value(value, is: $0) }) else {
                problems.append("\(location) is \(Self.describe(value)), the document says \(allowed.joined(separator: " or "))")
                return
            }
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { Self.equal(value, $0) }) {
            problems.append("\(location) = \(Self.describe(value)) is not one of \(options)")
        }
        if let constant = schema["const"], !Self.equal(value, constant) { problems.append("\(location) is not \(constant)") }
        for part in schema["allOf"] as? [Any] ?? [] { check(value, against: part, at: location, into: &problems) }
        for keyword in ["oneOf", "anyOf"] {
            guard let options = schema[keyword] as? [Any] else { continue }
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
            if let minimum = schema["minLength"] as? Int, text.count < minimum { problems.append("\(location) is shorter than \(minimum)") }
            if let maximum = schema["maxLength"] as? Int, text.count > maximum { problems.append("\(location) is longer than \(maximum)") }
            if let pattern = schema["pattern"] as? String, text.range(of: pattern, options: .regularExpression) == nil {
                problems.append("\(location) '\(text)' does not match \(pattern)")
            }
        case .integer, .number:
            let number: Double = if case .integer(let whole) = value { Double(whole) } else if case .number(let real) = value { real } else { 0 }
            if let minimum = Self.number(schema["minimum"]), number < minimum { problems.append("\(location) is below \(minimum)") }
            if let maximum = Self.number(schema["maximum"]), number > maximum { problems.append("\(location) is above \(maximum)") }
        case .array(let items):
            if let minimum = schema["minItems"] as? Int, items.count < minimum { problems.append("\(location) has fewer than \(minimum) items") }
            if let maximum = schema["maxItems"] as? Int, items.count > maximum { problems.append("\(location) has more than \(maximum) items") }
            if let itemSchema = schema["items"] {
                for (index, item) in items.enumerated() { check(item, against: itemSchema, at: "\(location)[\(index)]", into: &problems) }
            }
        case .object(let members):
            for name in schema["required"] as? [String] ?? [] where members[name] == nil {
                problems.append("\(location).\(name) is required but missing")
            }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (name, member) in members {
                if let property = properties[name] {
                    check(member, against: property, at: "\(location).\(name)", into: &problems)
                } else if let additional = schema["additionalProperties"] {
                    if additional as? Bool == false {
                        problems.append("\(location).\(name) is not a documented property")
                    } else if !(additional is Bool) {
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

    private static func equal(_ value: JSONValue, _ yaml: Any) -> Bool {
        switch value {
        case .string(let text): (yaml as? String) == text
        case .integer(let number): (yaml as? Int).map(Int64.init) == number
        case .bool(let flag): (yaml as? Bool) == flag
        case .null: yaml is NSNull
        default: false
        }
    }

    private static func number(_ yaml: Any?) -> Double? {
        (yaml as? Int).map(Double.init) ?? (yaml as? Double)
    }

    private static func describe(_ value: JSONValue) -> String {
        String(decoding: (try? JSONEncoder().encode(value)) ?? Data(), as: UTF8.self).prefix(120).description
    }
}

/// A contract the document itself breaks (it does not load).
struct ContractViolation: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The parsed YAML tree: only read after loading, never mutated.
private struct SendableTree: @unchecked Sendable {
    let value: [String: Any]
    init(_ value: [String: Any]) { self.value = value }
}
