/// A YAML node as the bundle loader sees it: every scalar is text (Yams' basic resolver, so `NO`
/// stays a country code), every node keeps its position, and an explicit tag (`!x`) is kept so
/// the pitfall check can refuse it. Immutable and Sendable, unlike Yams' `Node`.
public struct YAMLNode: Sendable {
    /// How a scalar was written.
    public enum ScalarStyle: String, Sendable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    /// One key and its value in a mapping, in file order.
    public struct Pair: Sendable {
        /// The key node (a scalar in every file the loader accepts).
        public let key: YAMLNode
        /// The value node.
        public let value: YAMLNode
    }

    /// The node's content.
    public enum Content: Sendable {
        case scalar(String, ScalarStyle)
        case mapping([Pair])
        case sequence([YAMLNode])
    }

    /// The content.
    public let content: Content
    /// Where the node starts (for a quoted scalar: its opening quote).
    public let location: BundleLocation
    /// An explicit tag written in the file (`!segment.x` reads as a tag), nil when none.
    public let explicitTag: String?

    /// A node with `content` at `location`.
    public init(_ content: Content, at location: BundleLocation, explicitTag: String? = nil) {
        self.content = content
        self.location = location
        self.explicitTag = explicitTag
    }

    /// The scalar's text, nil for mappings and sequences.
    public var text: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// The scalar's style, nil for mappings and sequences.
    public var scalarStyle: ScalarStyle? {
        if case .scalar(_, let style) = content { return style }
        return nil
    }

    /// The mapping's pairs, nil for scalars and sequences.
    public var pairs: [Pair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// The sequence's items, nil for scalars and mappings.
    public var items: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The value of `key` in a mapping (first match), nil otherwise.
    public subscript(key: String) -> YAMLNode? {
        pairs?.first { $0.key.text == key }?.value
    }

    /// "a text value", "a mapping" or "a list", for messages.
    public var kindDescription: String {
        switch content {
        case .scalar: "a text value"
        case .mapping: "a mapping"
        case .sequence: "a list"
        }
    }

    /// Whether the node is a scalar whose whole text is empty (`key:` with nothing after it).
    public var isEmptyScalar: Bool { text?.isEmpty == true && scalarStyle == .plain }

    /// The number of scalars the caret should underline for this node: the scalar's text (with
    /// its quotes), otherwise 1.
    var underlineLength: Int {
        guard case .scalar(let text, let style) = content, !text.contains("\n") else { return 1 }
        let quotes = (style == .singleQuoted || style == .doubleQuoted) ? 2 : 0
        return max(1, text.unicodeScalars.count + quotes)
    }
}
