/// One compiled expression of the bundle with where it is written: a `when` entry, a veto's `if`,
/// an `appliesTo`, a unit or a response field.
public struct CompiledCondition: Sendable {
    /// The compiled expression (evaluate it with an `EvaluationContext`).
    public let expression: CompiledExpression
    /// Where the expression text starts in its file.
    public let location: BundleLocation

    /// The expression text as written.
    public var source: String { expression.source }

    init(_ expression: CompiledExpression, at positioned: PositionedExpression) {
        self.expression = expression
        self.location = positioned.start
    }
}

/// A `never:` entry, compiled: any true (or erroring) veto blocks the section.
public struct CompiledVeto: Sendable {
    /// The veto's id (`no-offers-to-recent-refunders`).
    public let id: String
    /// Where its `id:` is.
    public let location: BundleLocation
    /// Its `if:` condition.
    public let condition: CompiledCondition
}

/// `active: {from, until}` in milliseconds; either end may be open.
public struct ActiveWindow: Hashable, Sendable {
    /// The first instant the rule applies, if bounded.
    public let from: Int64?
    /// The last instant the rule applies (inclusive), if bounded.
    public let until: Int64?

    /// Whether `now` is inside the window.
    @inline(__always)
    public func contains(_ now: Int64) -> Bool {
        if let from, now < from { return false }
        if let until, now > until { return false }
        return true
    }
}

/// A `{max, within}` limit.
public struct OfferLimit: Hashable, Sendable {
    /// At most this many grants…
    public let max: Int
    /// …within this window (milliseconds) ending at `now`.
    public let within: Int64
    /// Where its key (`perCustomer:`, or the offer id under `perOffer:`) is written.
    public let location: BundleLocation

    init(_ syntax: LimitSyntax) {
        max = syntax.max
        within = syntax.within
        location = syntax.location
    }
}

/// A rule's offer: one catalog offer, or (win-back) the first of the customer's
/// `eligibleWinBackOfferIds`, in Apple's order, that the rule allows.
public enum OfferSpec: Hashable, Sendable {
    /// A promotional offer (or a single win-back offer — still subject to eligibility).
    case promotional(id: String)
    /// Win-back: `allowed` is the rule's list (`id` or `among`), or every win-back offer of the
    /// catalog when the rule names none.
    case winBack(allowed: [String])

    /// `PROMOTIONAL` or `WIN_BACK`.
    public var typeName: String {
        switch self {
        case .promotional: "PROMOTIONAL"
        case .winBack: "WIN_BACK"
        }
    }
}

/// A compiled `split:` — variants chosen by cumulative integer weights over bucket / 100.
public struct CompiledSplit: Sendable {
    /// What to bucket by (a string expression, e.g. `subscription.originalTransactionId`).
    public let unit: CompiledCondition
    /// The salt (`winback-depth-2026-12`).
    public let salt: String
    /// Weights (summing to 100) and their offers, in file order.
    public let variants: [(weight: Int, offer: OfferSpec)]

    /// The variant index for `bucket` in `0..<10_000`: the first whose cumulative weight × 100
    /// exceeds the bucket.
    public func variantIndex(forBucket bucket: Int) -> Int {
        Bucketing.variantIndex(weights: variants.map(\.weight), bucket: bucket)
    }
}
