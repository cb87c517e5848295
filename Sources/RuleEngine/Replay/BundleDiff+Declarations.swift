/// The bundle-wide declarations as diff items: constants (compared by their folded values, a
/// per-key table key by key), segments (by their expressions) and customer attributes (by their
/// types).
extension BundleDiff {
    /// Each constant, with one aspect per key of a table.
    static func constants(_ bundle: RuleBundle) -> [BundleDiffItem] {
        bundle.declarations.constants.map { declaration in
            let folded = bundle.constants[declaration.name]
            guard declaration.isTable else {
                let aspect = constantAspect(name: "", text: declaration.text, value: folded?.value, type: folded?.type)
                return BundleDiffItem(section: nil, kind: "constant", name: declaration.name, location: declaration.location,
                                      summary: aspect.written, aspects: [aspect])
            }
            var entryType: RuleType?
            var values: [String: RuleValue] = [:]
            if case .map(let inner)? = folded?.type, case .map(let entries)? = folded?.value { (entryType, values) = (inner, entries) }
            let aspects = declaration.entries.map { entry in
                constantAspect(name: entry.name + ":", text: entry.text, value: values[entry.name], type: entryType, location: entry.location)
            }
            return BundleDiffItem(
                section: nil, kind: "constant", name: declaration.name, location: declaration.location,
                summary: "{" + aspects.map { $0.labelled($0.written) }.joined(separator: ", ") + "}", aspects: aspects)
        }
    }

    /// Each segment's expression.
    static func segments(_ bundle: RuleBundle) -> [BundleDiffItem] {
        bundle.declarations.segments.map {
            BundleDiffItem(section: nil, kind: "segment", name: $0.name, location: $0.location, value: $0.text)
        }
    }

    /// Each declared customer attribute's type (`int?`).
    static func attributes(_ bundle: RuleBundle) -> [BundleDiffItem] {
        bundle.declarations.attributes.map {
            BundleDiffItem(section: nil, kind: "attribute", name: $0.name, location: $0.location, value: $0.text)
        }
    }

    /// A constant (or table entry) compared by its folded value and shown as written.
    private static func constantAspect(name: String, text: String, value: RuleValue?, type: RuleType?,
                                       location: BundleLocation? = nil) -> BundleDiffAspect {
        let written = writtenValue(text)
        guard let value, let type else { return BundleDiffAspect(name: name, identity: text, written: written, value: written) }
        return BundleDiffAspect(name: name, identity: value, written: written, value: value.rendered(as: type), location: location)
    }

    /// A money literal as its amount (`money('39.00 USD')` → `39.00 USD`, as the author wrote it);
    /// any other expression as written.
    static func writtenValue(_ text: String) -> String {
        for quote in ["'", "\""] where text.hasPrefix("money(\(quote)") && text.hasSuffix("\(quote))") && text.count > 9 {
            let amount = text.dropFirst(7).dropLast(2)
            if !amount.contains(Character(quote)), Money(parsing: amount) != nil { return String(amount) }
        }
        return text
    }
}
