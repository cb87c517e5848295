/// What a replay compares the candidate with.
public enum ReplayBaseline: Sendable {
    /// What the service decided, as recorded (by whichever bundle was active then).
    case recorded
    /// Another bundle (e.g. the active one), replayed the same way as the candidate: holdout,
    /// splits and caps simulated over the same decisions.
    case bundle(RuleBundle, source: String)
}
