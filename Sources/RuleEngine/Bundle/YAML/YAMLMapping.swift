/// A mapping node whose keys were checked against the keys a file format allows, looked up by
/// key with positions kept for both key and value.
struct YAMLMapping {
    /// The mapping node itself.
    let node: YAMLNode
    /// The pairs whose keys are scalars, in file order.
    let pairs: [YAMLNode.Pair]

    /// The value of `key`, nil when absent.
    subscript(key: String) -> YAMLNode? { pairs.first { $0.key.text == key }?.value }

    /// The key node of `key` (for positions), nil when absent.
    func keyNode(_ key: String) -> YAMLNode? { pairs.first { $0.key.text == key }?.key }

    /// Whether `key` is present.
    func has(_ key: String) -> Bool { self[key] != nil }
}
