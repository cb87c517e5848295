import AppStoreServer
import Foundation

/// What Verdict answered one realtime request, and why.
struct RealtimeAnswer: Sendable {
    /// Why the App Store falls back (or `answered`).
    enum Cause: String, Sendable {
        case answered
        /// No rule's answer fitted (none matched, messages not approved or not in the locale, …).
        case noRule = "no_rule"
        case heldOut = "held_out"
        case vetoed
        /// Every fitting answer's offer was over a limit.
        case capped
        /// The retention section's `appliesTo` left the request out, or the bundle has no such section.
        case notApplicable = "not_applicable"
        case ruleError = "rule_error"
        case noRulesLoaded = "no_rules_loaded"
        /// No transaction of the subscription is stored yet.
        case unknownSubscription = "unknown_subscription"
        /// The decision was not stored within ``ServiceConfiguration/retentionDeadline``.
        case deadline
        /// The answer has an offer and no In-App Purchase key is configured.
        case signingUnavailable = "signing_unavailable"
        /// The request's signature could not be checked now (OCSP unreachable).
        case verificationUnavailable = "verification_unavailable"
        /// Storage or signing failed.
        case error
    }

    var body: RealtimeResponseBody
    var cause: Cause
    /// The stored decision, when one was made.
    var decisionId: String?
    /// The answer repeats the one given to an earlier request with the same identifier.
    var repeated = false

    /// `message`, `offer`, `alternate_product`, `default_message` (a fallback with the product's
    /// default message) or `fallback`.
    var result: String {
        switch body {
        case .fallback: "fallback"
        case .message: cause == .answered ? "message" : "default_message"
        case .alternateProduct: "alternate_product"
        case .promotionalOffer: "offer"
        }
    }
}
