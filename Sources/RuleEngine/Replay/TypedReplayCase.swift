/// A ``ReplayCase`` whose facts a replay's ``ReplayFactTyper`` has typed already. Typing the
/// facts is the part of re-deciding that does not depend on the decisions before, so a caller
/// streaming many cases types them on every core and feeds ``RuleReplay/replay(typed:)`` in order.
public struct TypedReplayCase: Sendable {
    /// The case; its untyped facts are dropped (`null`) when no bundle of the replay needs them.
    public let replayCase: ReplayCase
    /// The schema the facts were typed with.
    let schema: FactSchema
    /// The typed facts, or why they do not fit the schema.
    let typed: Result<Facts, FactsError>
}

/// Types the facts of cases for one ``RuleReplay`` (with its candidate's schema), on any task
/// and concurrently: get it from ``RuleReplay/factTyper`` and hand its cases only to that replay.
public struct ReplayFactTyper: Sendable {
    let schema: FactSchema
    /// Whether the typed facts serve every bundle of the replay (the candidate, and a baseline
    /// bundle with the same schema): then the untyped facts are not kept.
    let servesEveryBundle: Bool

    /// `replayCase` with its facts typed.
    public func type(_ replayCase: ReplayCase) -> TypedReplayCase {
        var replayCase = replayCase
        let typed = Result { () throws(FactsError) in try Facts(replayCase.facts, schema: schema) }
        if servesEveryBundle { replayCase.facts = .null }
        return TypedReplayCase(replayCase: replayCase, schema: schema, typed: typed)
    }

    /// `replayCase` with the facts of the stored `record` (whatever facts the case held), typed
    /// straight from the record's text: the same as ``type(_:)`` on the case holding
    /// `record.facts()`, without building the untyped tree unless a bundle of the replay needs it.
    public func type(_ replayCase: ReplayCase, factsOf record: DecisionRecordJSON) -> TypedReplayCase {
        var replayCase = replayCase
        replayCase.facts = servesEveryBundle ? .null : record.facts()
        return TypedReplayCase(replayCase: replayCase, schema: schema, typed: record.typedFacts(schema: schema))
    }
}
