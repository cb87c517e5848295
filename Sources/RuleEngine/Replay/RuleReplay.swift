/// Re-decides stored decisions with a candidate bundle, in time order, and compares each with a
/// baseline (what was recorded, or another bundle replayed the same way): the engine of
/// `verdict rules replay` and `POST /v1/rules/replay`. Pure: the caller streams the cases in
/// (`replay(_:)`, in `decidedAt` order) and reads the ``ReplayReport`` at the end.
///
/// The candidate types the stored facts with its own schema, buckets holdouts and splits with
/// its own salts, and counts its caps over the offers it grants during the replay (not today's
/// counters). Facts derived from earlier decisions (e.g. the customer's past offers) are as they
/// were stored.
public struct RuleReplay: Sendable {
    /// Examples kept per transition.
    public static let examplesPerTransition = 3

    let candidate: ReplaySimulator
    let candidateSource: String?
    let baseline: ReplaySimulator?
    let baselineSource: String?
    /// The bundle the diff compares the candidate with (the baseline bundle, or for a recorded
    /// baseline, typically the active bundle).
    let reference: RuleBundle?
    let sections: [Decision.Section]
    /// Whether the baseline bundle (if any) types facts with the candidate's schema.
    let baselineSharesSchema: Bool
    var tally: ReplayTally

    /// A replay of `candidate` against `baseline` over `sections`. `reference` is the bundle the
    /// structural diff starts from when the baseline is `recorded` (ignored otherwise).
    public init(candidate: RuleBundle, candidateSource: String? = nil, baseline: ReplayBaseline,
                reference: RuleBundle? = nil, sections: [Decision.Section] = [.offers, .refunds, .retention]) {
        self.candidate = ReplaySimulator(bundle: candidate)
        self.candidateSource = candidateSource
        switch baseline {
        case .recorded:
            self.baseline = nil
            baselineSource = nil
            self.reference = reference
        case .bundle(let bundle, let source):
            self.baseline = ReplaySimulator(bundle: bundle)
            baselineSource = source
            self.reference = bundle
        }
        self.sections = sections
        baselineSharesSchema = self.baseline.map { $0.bundle.schema == candidate.schema } ?? true
        tally = ReplayTally(candidate: candidate, baseline: self.reference)
    }

    /// Types cases' facts for this replay ahead of ``replay(typed:)``, on any task.
    public var factTyper: ReplayFactTyper {
        ReplayFactTyper(schema: candidate.bundle.schema, servesEveryBundle: baselineSharesSchema)
    }

    /// Re-decides one stored decision (cases must come in `decidedAt` order, per section).
    /// Cases of a section that is not replayed are skipped.
    public mutating func replay(_ replayCase: ReplayCase) {
        guard sections.contains(replayCase.section) else { return }
        replay(typed: factTyper.type(replayCase))
    }

    /// ``replay(_:)`` for a case typed by this replay's ``factTyper``; the same result.
    public mutating func replay(typed: TypedReplayCase) {
        let replayCase = typed.replayCase
        guard sections.contains(replayCase.section) else { return }
        // The same schema object, as the typer hands it out: an identity check.
        let typing = typed.schema == candidate.bundle.schema ? typed.typed : nil
        let after = candidate.decide(replayCase, typed: typing)
        let before = baseline?.decide(replayCase, typed: baselineSharesSchema ? typing : nil)
        let section = replayCase.section
        let from = ReplayVerdict.of(before?.decision ?? replayCase.recorded, section: section, mayShare: replayCase.mayShare)
        let to = ReplayVerdict.of(after.decision, section: section, mayShare: replayCase.mayShare)
        var example: ReplayReport.Example?
        if tally.wantsExample(section: section, from: from, to: to) {
            var baselineDecision: Decision?
            if let baseline, let before { baselineDecision = baseline.explain(before, replayCase) }
            let candidateDecision = candidate.explain(after, replayCase)
            example = ReplayReport.Example(
                decisionId: replayCase.id, originalTransactionId: replayCase.originalTransactionId,
                transactionId: replayCase.transactionId, decidedAt: RuleTime.renderTimestamp(replayCase.decidedAt),
                baselineRule: Self.decidingRule(before?.decision ?? replayCase.recorded)?.id,
                candidateRule: Self.decidingRule(after.decision)?.id,
                baselineExplanation: baselineDecision?.renderText() ?? replayCase.recordedExplanation
                    ?? replayCase.recorded.renderText(),
                candidateExplanation: candidateDecision.renderText())
        }
        tally.add(replayCase, baseline: before?.decision ?? replayCase.recorded, candidate: after.decision,
                  from: from, to: to, example: example)
        candidate.commit(after)
        if let before { baseline?.commit(before) }
    }

    /// The report of everything replayed so far.
    public func report(since: Int64? = nil, until: Int64? = nil, sample: Int? = nil) -> ReplayReport {
        let candidateInfo = ReplayReport.BundleInfo(
            role: "candidate", kind: "bundle", hash: candidate.bundle.hash, source: candidateSource)
        let baselineInfo = baseline.map {
            ReplayReport.BundleInfo(role: "baseline", kind: "bundle", hash: $0.bundle.hash, source: baselineSource)
        } ?? ReplayReport.BundleInfo(role: "baseline", kind: "recorded", hash: nil, source: nil)
        return tally.report(
            candidate: candidateInfo, baseline: baselineInfo,
            diff: reference.map { BundleDiff.changes(from: $0, to: candidate.bundle) } ?? [],
            sections: sections, since: since.map(RuleTime.renderTimestamp), until: until.map(RuleTime.renderTimestamp),
            sample: sample)
    }

    /// The rule that decided (or would have, for a held-out customer).
    static func decidingRule(_ decision: Decision) -> RuleReference? {
        decision.rule ?? decision.counterfactualRule ?? decision.blockedBy
    }
}
