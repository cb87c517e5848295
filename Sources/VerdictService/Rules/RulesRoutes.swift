import Foundation
import Hummingbird
import RuleEngine
import VerdictStorage

/// `GET /v1/rules`: the active bundle (hash, load time, rules with their file and line, the
/// retention messages with their review states and a warning for each one not approved) and the
/// last refused candidate with its positioned errors. `GET /v1/rules/stats`: how each offer rule
/// has done, treatment against holdout, and each refund rule: requests, sent, not sent, Apple's outcomes.
/// Both are about an app as a whole: the request's ``RequestApps/single()`` app.
struct RulesRoutes {
    /// `VERDICT_ATTRIBUTION_WINDOW`: outcomes count only inside it, and the stats say so.
    let attributionWindowDays: Int

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.get("/v1/rules") { _, context in
            let app = try context.apps.single()
            let reloader = app.rulesReloader
            let bundle = reloader.store.current
            let rejected = reloader.lastRejected
            let review = RetentionMessageReview(
                messages: bundle?.messages ?? .empty, states: try await app.repository.retentionMessageStates())
            return try JSONBody.response(RulesView(
                directory: reloader.directory,
                hash: bundle?.hash,
                loadedAt: reloader.loadedAt?.appStoreMilliseconds,
                rules: bundle?.ruleReferences ?? [],
                offers: bundle?.catalog.offers.map { .init(id: $0.id, type: $0.type, productIds: $0.productIds) } ?? [],
                messages: review.items, warnings: review.warnings,
                lastRejected: rejected.map { attempt in
                    RulesView.Rejected(
                        at: attempt.at.appStoreMilliseconds, hash: attempt.rejection.hash,
                        errors: attempt.rejection.diagnostics.filter { $0.severity == .error },
                        failedTests: attempt.rejection.testReport.map { $0.render() },
                        text: attempt.rejection.render()
                    )
                }
            ))
        }
        router.get("/v1/rules/stats") { _, context in
            let repository = try context.apps.single().repository
            return try JSONBody.response(StatisticsView(
                attributionWindowDays: attributionWindowDays,
                rules: try await repository.offerRuleStatistics().map(RuleStatisticsView.init),
                refundRules: try await repository.refundRuleStatistics().map(RefundRuleStatisticsView.init)))
        }
    }

    /// The stats body: offer rules under `rules`, refund rules under `refundRules`.
    struct StatisticsView: Encodable {
        /// Outcomes (redeemed, retained) count only when the customer acted within this many days
        /// after the offer expired (or after a decision without an offer).
        var attributionWindowDays: Int
        var rules: [RuleStatisticsView]
        var refundRules: [RefundRuleStatisticsView]
    }

    /// One refund rule's (or veto's, or `default`'s) requests, submissions and Apple's outcomes.
    struct RefundRuleStatisticsView: Encodable {
        var ruleId: String
        var requests: Int
        var sent: Int
        var notSentNoConsent: Int
        var notSentOther: Int
        var failed: Int
        var missed: Int
        var granted: Int
        var declined: Int
        var reversed: Int
        var seatsRefunded: Int

        init(_ statistics: RefundRuleStatistics) {
            ruleId = statistics.ruleId
            requests = statistics.requests
            sent = statistics.sent
            notSentNoConsent = statistics.notSentNoConsent
            notSentOther = statistics.notSentOther
            failed = statistics.failed
            missed = statistics.missed
            granted = statistics.granted
            declined = statistics.declined
            reversed = statistics.reversed
            seatsRefunded = statistics.seatsRefunded
        }
    }

    /// One rule's statistics with its conversion rates (nil without a denominator).
    struct RuleStatisticsView: Encodable {
        var ruleId: String
        var decisions: Int
        var offersMade: Int
        var heldOut: Int
        var redeemed: Int
        var convertedTreatment: Int
        var convertedHoldout: Int
        var appleOffer: Int
        var switched: Int
        var renewed: Int
        var cancelled: Int
        var addedSeats: Int
        var seatsRefunded: Int
        var seatsUnclaimed: Int
        var assignmentRevoked: Int
        var conversionTreatment: Double?
        var conversionHoldout: Double?

        init(_ statistics: OfferRuleStatistics) {
            ruleId = statistics.ruleId
            decisions = statistics.decisions
            offersMade = statistics.offersMade
            heldOut = statistics.heldOut
            redeemed = statistics.redeemed
            convertedTreatment = statistics.convertedTreatment
            convertedHoldout = statistics.convertedHoldout
            appleOffer = statistics.appleOffer
            switched = statistics.switched
            renewed = statistics.renewed
            cancelled = statistics.cancelled
            addedSeats = statistics.addedSeats
            seatsRefunded = statistics.seatsRefunded
            seatsUnclaimed = statistics.seatsUnclaimed
            assignmentRevoked = statistics.assignmentRevoked
            conversionTreatment = offersMade > 0 ? Double(convertedTreatment) / Double(offersMade) : nil
            conversionHoldout = heldOut > 0 ? Double(convertedHoldout) / Double(heldOut) : nil
        }
    }

    /// The response body.
    struct RulesView: Encodable {
        struct Offer: Encodable {
            var id: String
            var type: String
            var productIds: [String]
        }

        struct Rejected: Encodable {
            var at: Int64
            var hash: String?
            var errors: [RuleDiagnostic]
            var failedTests: String?
            var text: String
        }

        var directory: String
        var hash: String?
        var loadedAt: Int64?
        var rules: [RuleReference]
        var offers: [Offer]
        /// The texts and images of `messages.yaml` with their review states at Apple.
        var messages: [RetentionMessageReview.Item]
        /// One per text or image Apple has not approved (rules using it are skipped).
        var warnings: [String]
        var lastRejected: Rejected?
    }
}
