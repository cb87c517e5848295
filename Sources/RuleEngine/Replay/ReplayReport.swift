/// What a candidate bundle would have done to the stored decisions, against a baseline: the
/// report of `verdict rules replay` and `POST /v1/rules/replay`, as JSON (this type), text
/// (``renderText()``) and HTML. Counts only; the examples carry a few customers per transition
/// with their explanations under both bundles.
public struct ReplayReport: Sendable, Hashable, Codable {
    /// A bundle the replay ran.
    public struct BundleInfo: Sendable, Hashable, Codable {
        /// `candidate` or `baseline`.
        public var role: String
        /// `recorded` (what the service decided, by whichever bundle was active then) or `bundle`.
        public var kind: String
        /// `sha256:…` of the bundle (nil for `recorded`).
        public var hash: String?
        /// Where its files came from, as given (a folder, `active`, an upload).
        public var source: String?
    }

    /// Replayed, changed, unchanged and errors: overall and per section.
    public struct Totals: Sendable, Hashable, Codable {
        /// Decisions re-decided.
        public var replayed = 0
        /// Decisions whose verdict differs between baseline and candidate.
        public var changed = 0
        /// Decisions whose verdict is the same.
        public var unchanged = 0
        /// Decisions where the candidate could not evaluate something (a condition, its facts);
        /// counted in `changed` or `unchanged` too.
        public var errors = 0

        public init(replayed: Int = 0, changed: Int = 0, unchanged: Int = 0, errors: Int = 0) {
            self.replayed = replayed
            self.changed = changed
            self.unchanged = unchanged
            self.errors = errors
        }
    }

    /// One section's totals.
    public struct SectionTotals: Sendable, Hashable, Codable {
        public var section: Decision.Section
        public var totals: Totals
    }

    /// A rule or veto's counts under one bundle.
    public struct RuleCount: Sendable, Hashable, Codable {
        /// `baseline` or `candidate`.
        public var bundle: String
        public var section: Decision.Section
        /// The rule or veto id.
        public var rule: String
        /// `rule` or `veto`.
        public var kind: String
        public var file: String
        public var line: Int
        /// Decisions where its conditions held (deciding, held out, capped or shadow); a veto: blocked.
        public var matches = 0
        /// Offers it made (offers) or answers it gave (refunds).
        public var offers = 0
        /// Decisions it would have decided for a held-out customer.
        public var heldOut = 0
        /// Decisions where its offer was over a limit.
        public var capped = 0
        /// Decisions where it matched in shadow mode.
        public var shadow = 0
    }

    /// A customer in a transition cell, with the two explanations.
    public struct Example: Sendable, Hashable, Codable {
        /// The stored decision's id.
        public var decisionId: String
        public var originalTransactionId: String
        public var transactionId: String?
        /// When the service decided (ISO 8601).
        public var decidedAt: String
        /// The rule that decided under the baseline / the candidate (nil: none).
        public var baselineRule: String?
        public var candidateRule: String?
        /// The decision explained under each bundle (the recorded explanation for `recorded`).
        public var baselineExplanation: String
        public var candidateExplanation: String
    }

    /// Baseline verdict → candidate verdict, with how many decisions and a few examples.
    public struct Transition: Sendable, Hashable, Codable {
        public var section: Decision.Section
        /// The offer id / refund preference / `omitted`, or `none`.
        public var from: String
        /// Why `from` is `none` (`heldOut`, `vetoed`, `noMatch`, `capped`, `notApplicable`, `noConsent`, `error`).
        public var fromReason: ReplayVerdict.Reason?
        public var to: String
        public var toReason: ReplayVerdict.Reason?
        /// Whether the verdicts differ.
        public var changed: Bool
        public var count: Int
        public var examples: [Example]
    }

    /// How the decisions of one transition split by what Apple or the customer did afterwards.
    public struct OutcomeCount: Sendable, Hashable, Codable {
        public var section: Decision.Section
        public var from: String
        public var fromReason: ReplayVerdict.Reason?
        public var to: String
        public var toReason: ReplayVerdict.Reason?
        public var changed: Bool
        /// `redeemed`, `retained` (offers); `REFUND`, `REFUND_DECLINED`, `REFUND_REVERSED` (refunds).
        public var outcome: String
        public var count: Int
    }

    /// Offers made on one day (UTC, by `decidedAt`) under each bundle.
    public struct DayCount: Sendable, Hashable, Codable {
        /// `YYYY-MM-DD`.
        public var day: String
        public var baseline: Int
        public var candidate: Int
    }

    /// Something the candidate could not evaluate, and how often.
    public struct ErrorCount: Sendable, Hashable, Codable {
        public var rule: String
        public var file: String
        public var line: Int
        public var message: String
        public var count: Int
    }

    public var candidate: BundleInfo
    public var baseline: BundleInfo
    /// The period replayed (ISO 8601; nil = open).
    public var since: String?
    public var until: String?
    /// The sections replayed.
    public var sections: [Decision.Section]
    /// `--sample N`: at most this many decisions per section, evenly spread (nil: all).
    public var sample: Int?
    /// Every difference between the bundles that can change a decision (``BundleDiff``).
    public var diff: [BundleChange]
    public var totals: Totals
    public var sectionTotals: [SectionTotals]
    public var rules: [RuleCount]
    public var transitions: [Transition]
    public var outcomes: [OutcomeCount]
    public var offersByDay: [DayCount]
    public var errors: [ErrorCount]
}
