extension YAMLNode {
    /// The node as untyped fact data (the same reading as `FactData(yaml:)`: plain `~`, `null`
    /// and empty scalars are null, every other scalar stays a string).
    var factData: FactData {
        switch content {
        case .scalar(let text, let style):
            if style == .plain, ["", "~", "null", "Null", "NULL"].contains(text) { return .null }
            return .string(text)
        case .sequence(let items):
            return .list(items.map(\.factData))
        case .mapping(let pairs):
            var entries: [String: FactData] = [:]
            for pair in pairs {
                if let key = pair.key.text { entries[key] = pair.value.factData }
            }
            return .object(entries)
        }
    }

    /// The node at a facts path such as `customer.refunds[0].date`, as deep as it exists here:
    /// the deepest node found and whether the whole path was found.
    func node(atFactPath path: String) -> (node: YAMLNode, complete: Bool) {
        var current = self
        for component in path.split(separator: ".") {
            var name = Substring(component)
            var indices: [Int] = []
            while let open = name.lastIndex(of: "["), name.hasSuffix("]"), let index = Int(name[name.index(after: open)..<name.index(before: name.endIndex)]) {
                indices.insert(index, at: 0)
                name = name[..<open]
            }
            guard let child = current[String(name)] else { return (current, false) }
            current = child
            for index in indices {
                guard let items = current.items, index < items.count else { return (current, false) }
                current = items[index]
            }
        }
        return (current, true)
    }
}
