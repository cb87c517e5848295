import Foundation
import VerdictService
import Yams

/// The service's operations as `verdict demo` lists them, read from the OpenAPI document (the one
/// HTTP contract) in its order and grouped by its tags: each with its summary, whether it needs
/// the token, its query examples and its request-body example. Deprecated operations are left out.
struct DemoAPIOperations {
    /// One operation of the document.
    struct Operation {
        var method: String
        /// The path template (`/v1/subscriptions/{originalTransactionId}/offer`).
        var path: String
        var summary: String
        /// Whether it is open (`security: []`): no token.
        var open: Bool
        /// Query parameters that have an `example`, in the document's order.
        var query: [(name: String, value: String)]
        /// The request body's `example`, as JSON-compatible values.
        var body: Any?
    }

    /// The tags in the document's order, each with its description and operations.
    let groups: [(tag: String, description: String, operations: [Operation])]

    /// The service's own document.
    static func service() throws -> Self { try Self(yaml: OpenAPIDocument.yaml) }

    init(yaml: String) throws {
        guard let root = try Yams.compose(yaml: yaml), let paths = root["paths"]?.mapping else {
            throw DemoError("the OpenAPI document has no paths")
        }
        var operations: [String: [Operation]] = [:]
        for (pathNode, item) in paths {
            guard let path = pathNode.string, let methods = item.mapping else { continue }
            for (methodNode, operation) in methods {
                guard let method = methodNode.string, Self.methods.contains(method), operation["deprecated"]?.bool != true else { continue }
                let tag = operation["tags"]?.sequence?.first?.string ?? ""
                let parameters = (operation["parameters"]?.sequence ?? []).map { Self.resolve($0, in: root) }
                let query = parameters.compactMap { parameter -> (String, String)? in
                    guard parameter["in"]?.string == "query", let name = parameter["name"]?.string,
                          let example = parameter["example"]?.string else { return nil }
                    return (name, example)
                }
                let example = operation["requestBody"]?["content"]?["application/json"]?["example"]
                operations[tag, default: []].append(Operation(
                    method: method.uppercased(), path: path, summary: operation["summary"]?.string ?? "",
                    open: operation["security"]?.sequence?.isEmpty == true, query: query,
                    body: example.map { Constructor.default.any(from: $0) }))
            }
        }
        let tags = (root["tags"]?.sequence ?? []).compactMap { tag in
            tag["name"]?.string.map { ($0, tag["description"]?.string ?? $0) }
        }
        groups = tags.compactMap { name, description in
            operations[name].map { (name, description, $0) }
        }
    }

    private static let methods: Set<String> = ["get", "put", "post", "delete", "patch"]

    /// Follows `$ref: '#/components/…'`.
    private static func resolve(_ node: Node, in root: Node) -> Node {
        guard let reference = node["$ref"]?.string, reference.hasPrefix("#/") else { return node }
        var current: Node? = root
        for part in reference.dropFirst(2).split(separator: "/") { current = current?[String(part)] }
        return current ?? node
    }
}
