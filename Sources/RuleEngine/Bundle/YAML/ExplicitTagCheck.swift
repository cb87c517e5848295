/// Refuses explicit YAML tags anywhere in a bundle file (`- !segment.x` parses
/// without error as an empty, tagged scalar). Runs over every file before anything is read, so
/// the readers skip tagged nodes silently.
enum ExplicitTagCheck {
    /// Reports every explicitly tagged node under `node`.
    static func check(_ node: YAMLNode, log: DiagnosticLog) {
        if let tag = node.explicitTag {
            let written = tag + (node.text.map { $0.isEmpty ? "" : " " + $0 } ?? "")
            log.error(
                "'\(tag)' is read as a YAML tag, and tags are not allowed in bundle files", at: node,
                help: "a value that starts with '!' must be quoted: \"\(written)\"")
        }
        switch node.content {
        case .scalar: break
        case .mapping(let pairs):
            for pair in pairs {
                check(pair.key, log: log)
                check(pair.value, log: log)
            }
        case .sequence(let items):
            for item in items { check(item, log: log) }
        }
    }
}
