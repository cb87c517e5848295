/// What a bundle's rule files declare for all their sections — `constants:`, `segments:` and
/// `attributes:` — as written, each with where it is. The compiled bundle folds these into its
/// expressions and schema (``RuleBundle/constants`` keeps the folded values); this keeps the text
/// and the positions, for readers that show the bundle to people (the replay diff).
public struct BundleDeclarations: Sendable, Hashable {
    /// `name: text`, written at `location`. A per-key table (`annualFullPrice: {USD: …, EUR: …}`)
    /// has no text of its own and one entry per key instead.
    public struct Declaration: Sendable, Hashable {
        /// The constant, segment or attribute name; for a table entry, its key (`USD`).
        public let name: String
        /// The expression or type as written (`money('49.99 USD')`, `int?`); empty for a table.
        public let text: String
        /// Where the name (or key) is written.
        public let location: BundleLocation
        /// A table's entries in file order, each named by its key.
        public let entries: [Declaration]

        /// Whether this is a per-key table.
        public var isTable: Bool { !entries.isEmpty }
    }

    /// The constants, in declaration order.
    public let constants: [Declaration]
    /// The segments, in declaration order.
    public let segments: [Declaration]
    /// The declared customer attributes, in declaration order.
    public let attributes: [Declaration]

    /// The declarations of `files`, in file order (a clean bundle declares each name once).
    init(_ files: [RuleFileSyntax]) {
        constants = files.flatMap(\.constants).map { constant in
            switch constant.value {
            case .expression(let expression):
                Declaration(name: constant.name, text: expression.text, location: constant.keyNode.location, entries: [])
            case .table(let entries):
                Declaration(
                    name: constant.name, text: "", location: constant.keyNode.location,
                    entries: entries.map { Declaration(name: $0.key, text: $0.value.text, location: $0.keyNode.location, entries: []) })
            }
        }
        segments = files.flatMap(\.segments).map {
            Declaration(name: $0.name, text: $0.expression.text, location: $0.keyNode.location, entries: [])
        }
        attributes = files.flatMap(\.attributes).map {
            Declaration(name: $0.name, text: $0.typeName, location: $0.keyNode.location, entries: [])
        }
    }
}
