/// One thing a bundle declares, reduced to what the diff compares: its identity, where it is
/// written, and each aspect that can change a decision (a rule's description, a message's
/// description, comments and formatting are left out: they change nothing).
struct BundleDiffItem {
    var section: Decision.Section?
    var kind: String
    var name: String
    var location: BundleLocation
    /// What the item is, for the detail of an added or removed one.
    var summary: String
    /// A rule's or veto's conditions as written, compared as a set (nil for other items).
    var conditions: [String]?
    /// The aspects compared one by one, in a fixed order.
    var aspects: [BundleDiffAspect]

    /// Unique within a group of items.
    var key: String { "\(kind):\(name)" }

    /// An item with a single unnamed aspect whose text is also its summary.
    init(section: Decision.Section?, kind: String, name: String, location: BundleLocation, value: String) {
        self.init(section: section, kind: kind, name: name, location: location, summary: value,
                  aspects: [BundleDiffAspect(name: "", text: value)])
    }

    init(section: Decision.Section?, kind: String, name: String, location: BundleLocation, summary: String,
         conditions: [String]? = nil, aspects: [BundleDiffAspect]) {
        self.section = section
        self.kind = kind
        self.name = name
        self.location = location
        self.summary = summary
        self.conditions = conditions
        self.aspects = aspects
    }

    /// What differs from `before`, one text per condition change and aspect, and where the first
    /// changed aspect that has a position of its own is written (nil: the item's position).
    func differences(from before: BundleDiffItem) -> (details: [String], location: BundleLocation?) {
        var details: [String] = []
        var location: BundleLocation?
        if let conditions, let previous = before.conditions {
            let added = conditions.filter { !previous.contains($0) }
            let removed = previous.filter { !conditions.contains($0) }
            if !added.isEmpty || !removed.isEmpty {
                details.append("when: " + (added.map { "+ \"\($0)\"" } + removed.map { "− \"\($0)\"" }).joined(separator: ", "))
            } else if conditions != previous {
                details.append("when: conditions reordered")
            }
        }
        let old = Dictionary(before.aspects.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let names = Set(aspects.map(\.name))
        for aspect in aspects {
            guard let previous = old[aspect.name] else {
                details.append("+ " + aspect.labelled(aspect.written))
                location = location ?? aspect.location
                continue
            }
            guard previous.identity != aspect.identity else { continue }
            details.append(aspect.transition(from: previous))
            location = location ?? aspect.location
        }
        for aspect in before.aspects where !names.contains(aspect.name) {
            details.append("− " + aspect.labelled(aspect.written))
        }
        return (details, location)
    }
}

/// One compared aspect of a ``BundleDiffItem``: a rule's offer or mode, a table's entry, a
/// holdout's salt. Two aspects are the same when their identities are: a constant's folded value,
/// otherwise its text (so `money('39 USD')` rewritten `money('39.00 USD')` is no change).
struct BundleDiffAspect {
    /// `mode`, `USD`, `en-US body`; empty for an item's only value.
    var name: String
    /// What is compared.
    var identity: AnyHashable
    /// As written in the file.
    var written: String
    /// The value it has: shown when the written text stayed the same but the value did not (a
    /// constant computed from a constant that changed).
    var value: String
    /// Where it is written, when it has a line of its own (a table's key).
    var location: BundleLocation?

    /// An aspect compared by its text.
    init(name: String, text: String) {
        self.init(name: name, identity: text, written: text, value: text)
    }

    init(name: String, identity: AnyHashable, written: String, value: String, location: BundleLocation? = nil) {
        self.name = name
        self.identity = identity
        self.written = written
        self.value = value
        self.location = location
    }

    /// `USD: 39.00 USD → 45.00 USD`, `mode live → shadow`, `39.00 USD → 45.00 USD`.
    func transition(from before: BundleDiffAspect) -> String {
        let (old, new) = before.written != written ? (before.written, written) : (before.value, value)
        return labelled("\(old) → \(new)")
    }

    /// `text` after the aspect's name.
    func labelled(_ text: String) -> String {
        name.isEmpty ? text : "\(name) \(text)"
    }
}
