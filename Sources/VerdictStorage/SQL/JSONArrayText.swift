import Foundation

/// A JSON array of objects kept as text in a column (a request's repeats and outcomes), read,
/// appended to and written back inside one transaction.
struct JSONArrayText {
    private(set) var items: [[String: Any]]

    /// Parses `text`; anything that is not an array of objects reads as empty.
    init(_ text: String) {
        items = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]] ?? []
    }

    /// Parses a JSON object (empty when `text` is not one).
    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    mutating func append(_ item: [String: Any]) { items.append(item) }

    /// Whether an item has `key` equal to the string `value`.
    func contains(key: String, value: String) -> Bool {
        items.contains { $0[key] as? String == value }
    }

    /// The array as compact JSON with sorted keys.
    var text: String {
        guard let data = try? JSONSerialization.data(withJSONObject: items, options: [.sortedKeys]) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}
