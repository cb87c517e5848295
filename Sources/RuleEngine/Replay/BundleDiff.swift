/// The structural difference between a baseline and a candidate bundle, section by section:
/// rules and vetoes added, removed, moved (their priority changed relative to the others) or
/// changed (conditions, offer or answer, mode, window, limit behaviour), and the section's
/// settings (appliesTo, holdout, limits, default answer) and catalog offers.
public enum BundleDiff {
    /// The changes from `baseline` to `candidate`, offers first, in the candidate's order.
    public static func changes(from baseline: RuleBundle, to candidate: RuleBundle) -> [BundleChange] {
        var changes: [BundleChange] = []
        changes += entries(.offers, baseline: RuleShape.offers(baseline), candidate: RuleShape.offers(candidate))
        changes += settings(.offers, baseline: SettingShape.offers(baseline), candidate: SettingShape.offers(candidate))
        changes += catalog(baseline.catalog, candidate.catalog)
        changes += entries(.refunds, baseline: RuleShape.refunds(baseline), candidate: RuleShape.refunds(candidate))
        changes += settings(.refunds, baseline: SettingShape.refunds(baseline), candidate: SettingShape.refunds(candidate))
        changes += entries(.retention, baseline: RuleShape.retention(baseline), candidate: RuleShape.retention(candidate))
        return changes
    }

    private static func entries(_ section: Decision.Section, baseline: [RuleShape], candidate: [RuleShape]) -> [BundleChange] {
        var changes: [BundleChange] = []
        let old = Dictionary(baseline.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let new = Set(candidate.map(\.key))
        // Priority: among the entries both bundles have, those outside the longest common
        // subsequence of the two orders are the ones that moved.
        let commonOld = baseline.map(\.key).filter(new.contains)
        let commonNew = candidate.map(\.key).filter { old[$0] != nil }
        let kept = Set(longestCommonSubsequence(commonOld, commonNew))
        for (index, entry) in candidate.enumerated() {
            func change(_ kind: BundleChange.Change, _ detail: String?) -> BundleChange {
                BundleChange(change: kind, section: section, kind: entry.kind, rule: entry.id,
                             file: entry.location.file, line: entry.location.line, detail: detail)
            }
            guard let before = old[entry.key] else {
                changes.append(change(.added, "priority \(index + 1)"))
                continue
            }
            if !kept.contains(entry.key), let from = baseline.firstIndex(where: { $0.key == entry.key }) {
                changes.append(change(.moved, "priority \(from + 1) → \(index + 1)"))
            }
            let details = entry.differences(from: before)
            if !details.isEmpty { changes.append(change(.changed, details.joined(separator: "; "))) }
        }
        for entry in baseline where !new.contains(entry.key) {
            changes.append(BundleChange(change: .removed, section: section, kind: entry.kind, rule: entry.id,
                                        file: entry.location.file, line: entry.location.line, detail: nil))
        }
        return changes
    }

    private static func settings(_ section: Decision.Section, baseline: [SettingShape], candidate: [SettingShape]) -> [BundleChange] {
        var changes: [BundleChange] = []
        let old = Dictionary(baseline.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let names = Set(candidate.map(\.name))
        for setting in candidate {
            let before = old[setting.name]
            guard before?.value != setting.value else { continue }
            changes.append(BundleChange(
                change: before == nil ? .added : .changed, section: section, kind: setting.kind, rule: setting.name,
                file: setting.location?.file, line: setting.location?.line,
                detail: before.map { "\($0.value) → \(setting.value)" } ?? setting.value))
        }
        for setting in baseline where !names.contains(setting.name) {
            changes.append(BundleChange(
                change: .removed, section: section, kind: setting.kind, rule: setting.name,
                file: setting.location?.file, line: setting.location?.line, detail: setting.value))
        }
        return changes
    }

    private static func catalog(_ baseline: OfferCatalog, _ candidate: OfferCatalog) -> [BundleChange] {
        func text(_ offer: OfferCatalog.Offer) -> String {
            "\(offer.type) for \(offer.productIds.joined(separator: ", "))"
                + (offer.expiresAfter.map { ", expires after \(RuleTime.renderDuration($0))" } ?? "")
        }
        var changes: [BundleChange] = []
        for offer in candidate.offers {
            let before = baseline.offer(offer.id)
            guard before.map(text) != text(offer) else { continue }
            changes.append(BundleChange(
                change: before == nil ? .added : .changed, section: .offers, kind: "offer", rule: offer.id,
                file: "catalog.yaml", line: offer.line, detail: before.map { "\(text($0)) → \(text(offer))" } ?? text(offer)))
        }
        for offer in baseline.offers where candidate.offer(offer.id) == nil {
            changes.append(BundleChange(change: .removed, section: .offers, kind: "offer", rule: offer.id,
                                        file: "catalog.yaml", line: offer.line, detail: nil))
        }
        return changes
    }

    /// The longest common subsequence of two sequences of distinct keys.
    static func longestCommonSubsequence(_ a: [String], _ b: [String]) -> [String] {
        guard !a.isEmpty, !b.isEmpty else { return [] }
        var lengths = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var result: [String] = []
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] {
                result.append(a[i])
                i += 1
                j += 1
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return result
    }
}
