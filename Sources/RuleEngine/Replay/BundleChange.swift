/// One structural difference between two rule bundles, positioned in the file it is about: the
/// candidate's for what was added, moved or changed, the baseline's for what was removed.
public struct BundleChange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of change.
    public enum Change: String, Sendable, Hashable, Codable {
        case added, removed, moved, changed
    }

    public var change: Change
    public var section: Decision.Section
    /// `rule`, `veto`, `holdout`, `limit`, `appliesTo`, `default` or `offer` (the catalog).
    public var kind: String
    /// The rule or veto id, the offer id, or the setting's name.
    public var rule: String
    public var file: String?
    public var line: Int?
    /// What changed, for people (`when: + "…"; − "…"`, `priority 3 → 1`, `mode live → shadow`).
    public var detail: String?

    /// `changed rule annual-save (offers.rules.yaml:12): mode live → shadow`.
    public var description: String {
        let position = file.map { line.map { "\(file ?? ""):\($0)" } ?? $0 }.map { " (\($0))" } ?? ""
        return "\(change.rawValue) \(kind) \(rule)\(position)" + (detail.map { ": \($0)" } ?? "")
    }
}
