/// The commitment lint. A monthly plan with a commitment (12 months paid monthly) keeps charging
/// after auto-renew is turned off: a subscriber who turns it off in month 3 of 12 still pays for
/// the 9 months left, so a retention offer then gives a discount to someone who is not leaving yet.
/// An offer rule that can decide on such an event should say what it does about commitments.
extension BundleLints {
    /// The fact whose reading counts as that guard.
    static let commitmentPath = "subscription.commitment"

    /// Warns, at the rule's id, for each offer rule (live or shadow; `off` ones never decide) that
    /// can fire on `DID_CHANGE_RENEWAL_STATUS` / `AUTO_RENEW_DISABLED` and whose conditions do not
    /// read `subscription.commitment`, directly or through a segment. A veto of the offers section
    /// that reads it guards every rule, and silences the lint for the section.
    ///
    /// Whether a rule can fire on that event is judged statically and conservatively: only when
    /// the section's `appliesTo` and the rule's own conditions restrict `event.type` or
    /// `event.subtype` by plain comparisons (`==`, `!=`, `in [...]`, joined by `&&`, in the
    /// conditions or the segments they name) to values that exclude it does the rule count as not
    /// firing on it; anything else (an `||`, a macro) counts as possibly firing. The retention section answers realtime requests only, so
    /// it is not linted.
    func commitment(_ section: CompiledOffersSection?, analysis: ConditionAnalysis) {
        guard let section, !section.vetoes.map(\.condition).read(Self.commitmentPath) else { return }
        let sectionConditions = section.appliesTo.map { [$0.source] } ?? []
        for rule in section.rules where rule.mode != .off {
            guard !rule.conditions.read(Self.commitmentPath) else { continue }
            let conditions = sectionConditions + rule.conditions.map(\.source)
            let admitsType = analysis.constraint(on: "event.type", in: conditions)?.allows("DID_CHANGE_RENEWAL_STATUS") ?? true
            let admitsSubtype = analysis.constraint(on: "event.subtype", in: conditions)?.allows("AUTO_RENEW_DISABLED") ?? true
            guard admitsType, admitsSubtype else { continue }
            let reference = rule.reference
            log.report(
                .warning,
                "rule \(reference.id) can make an offer when a subscriber turns auto-renew off (AUTO_RENEW_DISABLED) without "
                    + "reading subscription.commitment: on a monthly plan with a commitment, a subscriber who turns it off in "
                    + "month 3 of 12 still pays for 9 more months",
                at: BundleLocation(file: reference.file, line: reference.line, column: columnOfId(reference)),
                length: reference.id.unicodeScalars.count,
                help: "add a condition such as \"!has(subscription.commitment) || subscription.commitment.period == "
                    + "subscription.commitment.periods\", or a veto of the offers section that reads subscription.commitment")
        }
    }
}
