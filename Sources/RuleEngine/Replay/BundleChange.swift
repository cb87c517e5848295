/// One difference between two rule bundles that can change a decision, positioned in the file it
/// is about: the candidate's for what was added, moved or changed, the baseline's for what was
/// removed.
public struct BundleChange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of change.
    public enum Change: String, Sendable, Hashable, Codable {
        case added, removed, moved, changed
    }

    public var change: Change
    /// The section the change is in; nil for what every section shares (the holdout, constants,
    /// segments, attributes and the catalog's offers).
    public var section: Decision.Section?
    /// `rule`, `veto`, `appliesTo`, `limit`, `default`, `holdout`, `constant`, `segment`,
    /// `attribute`, `offer` (the catalog), `message` or `image` (`messages.yaml`).
    public var kind: String
    /// The rule or veto id, the setting's name, the constant, segment, attribute, offer, message or
    /// image.
    public var rule: String
    /// The file, as the bundle's diagnostics print it.
    public var file: String
    /// The 1-based line: of the item's id or key, or for a per-key table of the first key that
    /// changed. 0 only in reports stored before every change had a position.
    public var line: Int
    /// What changed, old → new (`USD: 39.00 USD → 45.00 USD`, `priority 3 → 1`, `mode live →
    /// shadow`); for an added or removed item, what it is.
    public var detail: String?

    public init(change: Change, section: Decision.Section?, kind: String, rule: String, file: String, line: Int, detail: String?) {
        self.change = change
        self.section = section
        self.kind = kind
        self.rule = rule
        self.file = file
        self.line = line
        self.detail = detail
    }

    /// Reads a stored report's change; reports stored before every change had a position may
    /// lack `file` and `line`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        change = try container.decode(Change.self, forKey: .change)
        section = try container.decodeIfPresent(Decision.Section.self, forKey: .section)
        kind = try container.decode(String.self, forKey: .kind)
        rule = try container.decode(String.self, forKey: .rule)
        file = try container.decodeIfPresent(String.self, forKey: .file) ?? ""
        line = try container.decodeIfPresent(Int.self, forKey: .line) ?? 0
        detail = try container.decodeIfPresent(String.self, forKey: .detail)
    }

    /// `file:line`, or the file alone when the line is unknown.
    public var position: String { line > 0 ? "\(file):\(line)" : file }

    /// `changed rule annual-save (offers.rules.yaml:12): mode live → shadow`.
    public var description: String {
        "\(change.rawValue) \(kind) \(rule) (\(position))" + (detail.map { ": \($0)" } ?? "")
    }
}
