/// Every difference between a baseline and a candidate bundle that can change a decision, each
/// positioned in its file: per section, vetoes and rules added, removed, moved (see
/// ``PriorityMoves``) or changed (conditions, offer or answer, mode, window, limit behaviour,
/// expiry), and the section's settings (`appliesTo`, limits, the refund default); then what the
/// sections share: the holdout, constants, segments, customer attributes, the catalog's offers,
/// and the retention messages and images of `messages.yaml`.
public enum BundleDiff {
    /// The changes from `baseline` to `candidate`: offers, refunds and retention in turn, then the
    /// shared declarations; within each group in the candidate's order, removals last.
    public static func changes(from baseline: RuleBundle, to candidate: RuleBundle) -> [BundleChange] {
        var changes: [BundleChange] = []
        let sectionRules = [offerRules, refundRules, retentionRules]
        let sectionSettings = [offerSettings, refundSettings, retentionSettings]
        for (rules, settings) in zip(sectionRules, sectionSettings) {
            let (old, new) = (rules(baseline), rules(candidate))
            changes += compare(old.vetoes, new.vetoes, ordered: true)
            changes += compare(old.rules, new.rules, ordered: true)
            changes += compare(settings(baseline), settings(candidate), ordered: false)
        }
        for shared in [holdout, constants, segments, attributes, catalogOffers, messages, images] {
            changes += compare(shared(baseline), shared(candidate), ordered: false)
        }
        return changes
    }

    /// The changes from `baseline` to `candidate`, two versions of one group of items (keys are
    /// unique within a group). In an `ordered` group the position is the priority, and moves count.
    static func compare(_ baseline: [BundleDiffItem], _ candidate: [BundleDiffItem], ordered: Bool) -> [BundleChange] {
        var oldIndex: [String: Int] = [:]
        for (index, item) in baseline.enumerated() where oldIndex[item.key] == nil { oldIndex[item.key] = index }
        let newKeys = Set(candidate.map(\.key))
        let moved = ordered ? PriorityMoves.moved(from: baseline.map(\.key), to: candidate.map(\.key)) : []
        func priority(_ index: Int) -> String { ordered ? "priority \(index + 1): " : "" }
        var changes: [BundleChange] = []
        for (index, item) in candidate.enumerated() {
            guard let from = oldIndex[item.key] else {
                changes.append(change(.added, item, at: item.location, priority(index) + item.summary))
                continue
            }
            if moved.contains(item.key) {
                changes.append(change(.moved, item, at: item.location, "priority \(from + 1) → \(index + 1)"))
            }
            let (details, location) = item.differences(from: baseline[from])
            if !details.isEmpty {
                changes.append(change(.changed, item, at: location ?? item.location, details.joined(separator: "; ")))
            }
        }
        for (index, item) in baseline.enumerated() where !newKeys.contains(item.key) {
            changes.append(change(.removed, item, at: item.location, priority(index) + item.summary))
        }
        return changes
    }

    private static func change(_ change: BundleChange.Change, _ item: BundleDiffItem, at location: BundleLocation,
                               _ detail: String) -> BundleChange {
        BundleChange(change: change, section: item.section, kind: item.kind, rule: item.name, file: location.file,
                     line: location.line, detail: detail)
    }
}
