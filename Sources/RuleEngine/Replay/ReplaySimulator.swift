/// One bundle replayed over stored decisions in time order: types each case's facts with the
/// bundle's schema, decides at the decision's instant (holdout and splits with this bundle's
/// salts) and simulates its caps over the decisions it replays.
struct ReplaySimulator: Sendable {
    /// A replayed decision and the typed facts it was made on (nil when they did not fit).
    struct Replayed: Sendable {
        var decision: Decision
        var facts: Facts?
    }

    let bundle: RuleBundle
    private let limits = ReplayLimits()

    init(bundle: RuleBundle) {
        self.bundle = bundle
    }

    /// The decision this bundle would have made for `replayCase`, given the offers it granted
    /// earlier in the replay. Does not count the grant: call ``commit(_:)`` once per case.
    /// `typed`: the case's facts typed with this bundle's schema already (nil: typed here).
    func decide(_ replayCase: ReplayCase, typed: Result<Facts, FactsError>? = nil) -> Replayed {
        limits.advance(to: replayCase.decidedAt)
        switch typed ?? Result(catching: { () throws(FactsError) in try Facts(replayCase.facts, schema: bundle.schema) }) {
        case .success(let facts):
            return Replayed(decision: decide(facts, replayCase, explain: false), facts: facts)
        case .failure(let error):
            var decision = Decision(bundle: bundle.hash, now: replayCase.recorded.now)
            decision.errors.append(.init(
                rule: RuleReference(id: "facts", file: "", line: 0),
                message: "the stored facts do not fit this bundle's schema: \(error.description)"))
            return Replayed(decision: decision, facts: nil)
        }
    }

    /// The same decision with its condition trace (for the report's examples): call it before
    /// ``commit(_:)``, so the limits are as they were.
    func explain(_ replayed: Replayed, _ replayCase: ReplayCase) -> Decision {
        guard let facts = replayed.facts else { return replayed.decision }
        return decide(facts, replayCase, explain: true)
    }

    /// Counts the offer the decision made (not held out) against the caps of later decisions.
    func commit(_ replayed: Replayed) {
        guard let offer = replayed.decision.offer, !replayed.decision.heldOut else { return }
        limits.record(.offer(offer.id))
        let section = replayed.decision.section ?? .offers
        if let facts = replayed.facts, let unit = bundle.customerUnit(facts, now: replayed.decision.now?.millis, section: section) {
            limits.record(.customer(unit))
        }
    }

    /// A realtime request's case is decided by the retention section, every message counted as
    /// approved (the review states of the time are not stored).
    private func decide(_ facts: Facts, _ replayCase: ReplayCase, explain: Bool) -> Decision {
        if replayCase.section == .retention {
            return bundle.decideRetention(facts, now: replayCase.recorded.now?.millis, limits: limits, explain: explain)
        }
        return bundle.decide(facts, now: replayCase.recorded.now?.millis, limits: limits, explain: explain)
    }
}
