/// Reads a `*.rules.yaml` document into `RuleFileSyntax`, reporting structure errors with
/// positions. Sections are read by `RuleSectionReader`.
struct RuleFileReader {
    /// The rule-language versions this engine understands.
    static let supportedSchemaVersions = [1]
    static let topLevelKeys = [
        "schema", "name", "owners", "description", "constants", "segments", "attributes", "holdout", "offers", "refunds", "retention",
    ]

    let log: DiagnosticLog
    private var reader: NodeReader { NodeReader(log: log) }

    init(log: DiagnosticLog) { self.log = log }

    func read(_ root: YAMLNode) -> RuleFileSyntax {
        var syntax = RuleFileSyntax(file: root.location.file)
        guard let top = reader.mapping(root, "a rules file", keys: Self.topLevelKeys, required: ["schema"]) else {
            return syntax
        }
        if let node = top["schema"], let version = reader.int(node, "schema") {
            if Self.supportedSchemaVersions.contains(version) {
                syntax.schemaVersion = version
            } else {
                log.error(
                    "schema \(version) is not supported by this engine",
                    at: node, help: "supported: \(Self.supportedSchemaVersions.map(String.init).joined(separator: ", "))")
            }
        }
        if let node = top["name"] { syntax.name = reader.text(node, "name") }
        if let node = top["owners"], node.items == nil, node.text == nil { log.error("owners must be a list of names", at: node) }
        if let node = top["description"] { _ = reader.text(node, "description") }
        if let node = top["constants"] { syntax.constants = constants(node) }
        if let node = top["segments"] { syntax.segments = namedExpressions(node, "segments", item: "segment") }
        if let node = top["attributes"] { syntax.attributes = attributes(node) }
        if let node = top["holdout"], let key = top.keyNode("holdout") { syntax.holdout = holdout(node, key: key) }
        let sections = RuleSectionReader(log: log)
        if let node = top["offers"] { syntax.offers = sections.offers(node) }
        if let node = top["refunds"] { syntax.refunds = sections.refunds(node) }
        if let node = top["retention"] { syntax.retention = sections.retention(node) }
        return syntax
    }

    private func constants(_ node: YAMLNode) -> [ConstantSyntax] {
        guard let entries = reader.namedEntries(node, "constants") else { return [] }
        return entries.compactMap { entry -> ConstantSyntax? in
            guard Self.isIdentifier(entry.name) else {
                log.error("constant name '\(entry.name)' must be letters, digits and _", at: entry.key)
                return nil
            }
            if let pairs = entry.value.pairs {
                var table: [(key: String, keyNode: YAMLNode, value: PositionedExpression)] = []
                for pair in pairs {
                    guard let key = reader.text(pair.key, "a key of constants.\(entry.name)") else { continue }
                    guard let value = PositionedExpression.read(pair.value, "constants.\(entry.name).\(key)", log: log)
                    else { continue }
                    table.append((key, pair.key, value))
                }
                return ConstantSyntax(name: entry.name, keyNode: entry.key, value: .table(table))
            }
            guard let value = PositionedExpression.read(entry.value, "constants.\(entry.name)", log: log) else { return nil }
            return ConstantSyntax(name: entry.name, keyNode: entry.key, value: .expression(value))
        }
    }

    private func namedExpressions(_ node: YAMLNode, _ what: String, item: String) -> [NamedExpressionSyntax] {
        guard let entries = reader.namedEntries(node, what) else { return [] }
        return entries.compactMap { entry -> NamedExpressionSyntax? in
            guard Self.isIdentifier(entry.name) else {
                log.error("\(item) name '\(entry.name)' must be letters, digits and _", at: entry.key)
                return nil
            }
            guard let expression = PositionedExpression.read(entry.value, "\(what).\(entry.name)", log: log) else {
                return nil
            }
            return NamedExpressionSyntax(name: entry.name, keyNode: entry.key, expression: expression)
        }
    }

    private func attributes(_ node: YAMLNode) -> [AttributeSyntax] {
        guard let entries = reader.namedEntries(node, "attributes") else { return [] }
        return entries.compactMap { entry -> AttributeSyntax? in
            guard Self.isIdentifier(entry.name) else {
                log.error("attribute name '\(entry.name)' must be letters, digits and _", at: entry.key)
                return nil
            }
            guard let typeName = reader.text(entry.value, "the type of attribute \(entry.name)") else { return nil }
            return AttributeSyntax(name: entry.name, keyNode: entry.key, typeName: typeName, typeNode: entry.value)
        }
    }

    private func holdout(_ node: YAMLNode, key: YAMLNode) -> HoldoutSyntax? {
        guard let map = reader.mapping(node, "holdout", keys: ["percent", "unit", "salt"], required: ["percent", "unit", "salt"]),
            let percentNode = map["percent"], let unitNode = map["unit"], let saltNode = map["salt"],
            let percent = basisPoints(percentNode),
            let unit = PositionedExpression.read(unitNode, "holdout.unit", log: log),
            let salt = reader.text(saltNode, "holdout.salt")
        else { return nil }
        return HoldoutSyntax(node: node, location: key.location, basisPoints: percent, unit: unit, salt: salt)
    }

    /// `5` → 500, `2.5` → 250, `0.25` → 25: a percentage with at most two decimals, 0–100.
    private func basisPoints(_ node: YAMLNode) -> Int? {
        guard let text = reader.text(node, "holdout.percent") else { return nil }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        guard let whole = Int(parts[0]), whole >= 0, fraction.count <= 2, fraction.allSatisfy(\.isNumber),
            parts.count == 1 || !fraction.isEmpty
        else {
            log.error("holdout.percent must be a number from 0 to 100 with at most two decimals, found '\(text)'", at: node)
            return nil
        }
        let value = min(whole, 101) * 100 + (Int(fraction + String(repeating: "0", count: 2 - fraction.count)) ?? 0)
        guard value <= 10_000 else {
            log.error("holdout.percent must be at most 100, found \(text)", at: node)
            return nil
        }
        return value
    }

    /// Whether `name` can follow `constants.` / `segment.` in an expression.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic, first.isASCII else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }
}
