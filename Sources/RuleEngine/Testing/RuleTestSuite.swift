/// One `*.tests.yaml` file, read and typed at load: every test's facts are
/// already `Facts` (fixtures deep-merged under `given`), so a bad fixture is a load error with a
/// position, not a test failure.
public struct RuleTestSuite: Sendable {
    /// The file's printed path.
    public let file: String
    /// The `rules:` file the suite is about, if named.
    public let rulesFile: String?
    /// The tests, in file order.
    public let cases: [RuleTestCase]
}

/// One test: a name, facts, `now`, limit counts and what the decision must show.
public struct RuleTestCase: Sendable {
    /// The test's `name`.
    public let name: String
    /// Where its `name:` is.
    public let location: BundleLocation
    /// The decision instant (the test's `now`, else the file's, else the facts' `event.signedDate`).
    public let now: Int64?
    /// The typed facts.
    public let facts: Facts
    /// Grants already made, as the limits port will report them.
    public let limits: StaticLimits
    /// What to check.
    public let expectation: RuleTestExpectation
}

/// What a test expects; nil fields are not checked. `none` in the file is `.none`.
public struct RuleTestExpectation: Sendable {
    /// An expected name, or explicitly none.
    public enum Name: Hashable, Sendable, CustomStringConvertible {
        case none
        case named(String)

        /// `none` or the name.
        public var description: String {
            switch self {
            case .none: "none"
            case .named(let name): name
            }
        }

        init(_ text: String) { self = text == "none" ? .none : .named(text) }
    }

    /// An expected condition value: its text (as written in the rules) and `true`, `false` or `error`.
    public struct ConditionExpectation: Sendable {
        /// The condition's text, as written in a rule.
        public let source: String
        /// `true`, `false` or `error`.
        public let expected: String
        /// Where the expectation is written.
        public let location: BundleLocation
    }

    public var section: Name?
    public var offer: Name?
    /// The message of a realtime answer (`none`: the App Store falls back).
    public var message: Name?
    /// The alternate product of a realtime answer.
    public var alternateProduct: Name?
    public var rule: Name?
    public var blockedBy: Name?
    public var heldOut: Bool?
    public var bucket: Int?
    public var shadowMatches: [String]?
    public var refundPreference: Name?
    public var consumptionPercentage: Int64?
    public var deliveryStatus: Name?
    public var sampleContentProvided: Bool?
    public var conditions: [ConditionExpectation] = []
}

/// A `LimitsPort` with fixed counts, as a test states them (`limits: {perCustomer: 1, perOffer:
/// {promo-annual-50: 500}}`): every customer has the per-customer count, each offer its count.
public struct StaticLimits: LimitsPort {
    /// Offers already granted to the customer.
    public let perCustomer: Int
    /// Grants per offer id.
    public let perOffer: [String: Int]

    /// Fixed counts.
    public init(perCustomer: Int = 0, perOffer: [String: Int] = [:]) {
        self.perCustomer = perCustomer
        self.perOffer = perOffer
    }

    public func grantedCount(_ scope: LimitScope, window: Int64, now: Int64) -> Int {
        switch scope {
        case .customer: perCustomer
        case .offer(let id): perOffer[id] ?? 0
        }
    }
}
