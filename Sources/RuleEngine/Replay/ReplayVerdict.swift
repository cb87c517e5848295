/// What one decision amounted to for the customer or for Apple, the unit the replay compares:
/// for offers the offer id or `none`; for retention answers the message (with `+offer` or
/// `→product`) or `none`; for refunds Apple's `refundPreference` value, `omitted`
/// (a body sent without a preference) or `none` (nothing sent). `none` carries its reason.
public struct ReplayVerdict: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// Why a decision gave nothing.
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// The customer is in the holdout (the offer they would have got is the counterfactual).
        case heldOut
        /// A veto blocked the section.
        case vetoed
        /// No rule matched (or none of its offers fit the customer).
        case noMatch
        /// The matching rules' offers were over a limit.
        case capped
        /// The section's `appliesTo` left the event out, or the bundle has no such section.
        case notApplicable
        /// Refunds: the customer's consent did not allow sending consumption data.
        case noConsent
        /// Something could not be evaluated (facts that do not fit the bundle, a rule that errored).
        case error
    }

    /// `none` in ``value``: nothing offered or sent.
    public static let noneValue = "none"
    /// Refunds: a body sent without a `refundPreference`.
    public static let omittedValue = "omitted"

    /// The offer id, the refund preference, `omitted`, or `none`.
    public let value: String
    /// Why `none`; nil otherwise.
    public let reason: Reason?

    /// A verdict that gave something.
    public init(_ value: String) {
        self.value = value
        reason = nil
    }

    /// A verdict that gave nothing, and why.
    public init(none reason: Reason) {
        value = Self.noneValue
        self.reason = reason
    }

    /// `offer-id`, `DECLINE`, `none (vetoed)`.
    public var description: String { reason.map { "\(value) (\($0.rawValue))" } ?? value }

    public static func < (lhs: ReplayVerdict, rhs: ReplayVerdict) -> Bool {
        (lhs.value, lhs.reason?.rawValue ?? "") < (rhs.value, rhs.reason?.rawValue ?? "")
    }

    /// What `decision` amounted to in `section`; for refunds, `mayShare` says whether consent allowed
    /// sending anything at all.
    public static func of(_ decision: Decision, section: Decision.Section, mayShare: Bool = true) -> ReplayVerdict {
        guard decision.section == section else {
            return decision.errors.contains { $0.rule.id == "appliesTo" || $0.rule.id == "facts" }
                ? ReplayVerdict(none: .error) : ReplayVerdict(none: .notApplicable)
        }
        switch section {
        case .offers, .retention:
            if section == .retention, let answer = decision.answer { return ReplayVerdict(answerValue(answer)) }
            if section == .offers, let offer = decision.offer { return ReplayVerdict(offer.id) }
            if decision.heldOut { return ReplayVerdict(none: .heldOut) }
            if decision.blockedBy != nil { return ReplayVerdict(none: .vetoed) }
            if decision.limits.contains(where: \.exceeded) { return ReplayVerdict(none: .capped) }
            if !decision.errors.isEmpty { return ReplayVerdict(none: .error) }
            return ReplayVerdict(none: .noMatch)
        case .refunds:
            if decision.blockedBy != nil { return ReplayVerdict(none: .vetoed) }
            if !mayShare { return ReplayVerdict(none: .noConsent) }
            return ReplayVerdict(decision.refund?.refundPreference ?? omittedValue)
        }
    }

    /// Retention: the message id, `+offer-id` with an offer, `→product` with an alternate product.
    static func answerValue(_ answer: Decision.Answer) -> String {
        answer.message + (answer.offer.map { "+" + $0.id } ?? "") + (answer.alternateProduct.map { "→" + $0 } ?? "")
    }
}
