import AppStoreServer

extension JSONValue {
    /// The value a JSON pointer (RFC 6901: `/totals/replayed`, `/transitions/3/count`, `~1` for `/`
    /// and `~0` for `~` inside a key) names in this document; nil when it names nothing. The empty
    /// pointer names the whole document.
    func value(atPointer pointer: String) -> JSONValue? {
        guard !pointer.isEmpty else { return self }
        guard pointer.hasPrefix("/") else { return nil }
        var current = self
        for token in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current {
            case .object(let members):
                guard let member = members[key] else { return nil }
                current = member
            case .array(let elements):
                // Array indices are decimal without leading zeros.
                guard let index = Int(key), String(index) == key, elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The value as a page prints it: integers and strings as they are, booleans as `true` /
    /// `false`; nil for containers and `null`.
    var displayText: String? {
        switch self {
        case .integer(let value): String(value)
        case .number(let value): String(value)
        case .string(let value): value
        case .bool(let value): String(value)
        case .array, .object, .null: nil
        }
    }
}
