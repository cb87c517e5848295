import AppStoreServer
import Foundation
import Logging
import RuleEngine
import VerdictStorage

/// Answers Retention Messaging realtime requests: decides with the bundle's `retention:` section
/// on the subscription's stored history (never calling Apple), stores the decision with its
/// explanation (a repeated request identifier gets the stored answer again), and signs the
/// answer's offer — all under ``ServiceConfiguration/retentionDeadline``. Whatever cannot be
/// answered lets the App Store fall back: `{}`, or the product's default message of
/// `messages.yaml` when Apple approved it.
struct RetentionDecider: Sendable {
    /// The trigger of a realtime decision in the decision store.
    static let trigger = NotificationTypeV2.realtimeRequest.rawValue
    /// How long after the deadline a decision's `retention.answered` event waits before it is sent:
    /// an answer that reaches Apple late withdraws it meanwhile (``recordLate(_:)``).
    static let webhookGrace: Duration = .seconds(5)

    let repository: any OfferDecider.Stores
    let rules: BundleStore
    let offerDecider: OfferDecider
    let signer: OfferSigner?
    let approvals: ApprovedMessageCache
    let metrics: ServiceMetrics
    let deadline: Duration
    let logger: Logger
    let now: @Sendable () -> Date

    func answer(_ request: DecodedRealtimeRequestBody) async -> RealtimeAnswer {
        let started = ContinuousClock.now
        // The decision is stored only while a fifth of the deadline remains for signing and answering.
        let commitBy = started + deadline * 0.8
        let answer = await FirstToFinish.run(
            deadline: deadline, operation: { await decide(request, commitBy: commitBy) },
            late: { late in Task { await recordLate(late) } }) ?? fallback(request, .deadline)
        metrics.retentionRealtime(result: answer.result, cause: answer.cause.rawValue, duration: ContinuousClock.now - started)
        return answer
    }

    /// The fallback answer: the product's default message in the customer's language when Apple
    /// approved it, else `{}`. Reads nothing (the bundle and the cached approvals).
    func fallback(_ request: DecodedRealtimeRequestBody, _ cause: RealtimeAnswer.Cause, decisionId: String? = nil) -> RealtimeAnswer {
        var body = RealtimeResponseBody.fallback
        if let messages = rules.current?.messages, let id = messages.defaults[request.productId],
            let text = messages.message(id)?.localized(for: request.userLocale), approvals.snapshot.unapproved(text) == nil
        {
            body = .message(RetentionMessageReference(messageIdentifier: text.identifier))
        }
        return RealtimeAnswer(body: body, cause: cause, decisionId: decisionId)
    }

    private func decide(_ request: DecodedRealtimeRequestBody, commitBy: ContinuousClock.Instant) async -> RealtimeAnswer {
        guard let bundle = rules.current else { return fallback(request, .noRulesLoaded) }
        do {
            let approved = await approvals.current()
            let event = SubscriptionFacts.Event(
                type: .realtimeRequest, subtype: nil, environment: request.environment, signedDate: request.signedDate,
                userLocale: request.userLocale)
            let facts: SubscriptionFacts
            do {
                facts = try await offerDecider.gatherFacts(
                    originalTransactionId: request.originalTransactionId, event: event, decoded: DecodedPayloads())
            } catch OfferDecider.Failure.unknownCustomer {
                return fallback(request, .unknownSubscription)
            }
            let document = facts.factDocument
            let json = document.json
            let typed = try Facts(FactData(json), schema: bundle.schema)
            let decidedAt = now().appStoreMilliseconds
            let signedAt = request.signedDate.appStoreMilliseconds
            let customerUnit = bundle.customerUnit(typed, now: signedAt, section: .retention)
            for _ in 0..<OfferDecider.cappedRetries {
                let limits = try await CountedLimits.prefetch(
                    perCustomer: bundle.retention?.perCustomer, perOffer: bundle.retention?.perOffer ?? [:],
                    customerUnit: customerUnit, now: decidedAt, repository: repository)
                let decision = RuleEvaluationSpan.evaluate(.retention, bundle: bundle, app: metrics.app ?? "") {
                    bundle.decideRetention(typed, now: signedAt, limits: limits, messageStates: approved)
                }
                if decision.answer?.offer != nil, signer == nil { return fallback(request, .signingUnavailable) }
                guard ContinuousClock.now < commitBy else { return fallback(request, .deadline) }
                let record = try OfferDecider.record(
                    decision, facts: json, productId: document.subscription?.productId,
                    historyComplete: facts.historyComplete, bundle: bundle, id: UUID().uuidString.lowercased(),
                    originalTransactionId: request.originalTransactionId,
                    notificationUUID: request.requestIdentifier.uuidString.lowercased(), trigger: Self.trigger,
                    customerUnit: customerUnit, decidedAt: decidedAt)
                let caps = CountedLimits.caps(
                    of: record, perCustomer: bundle.retention?.perCustomer, perOffer: bundle.retention?.perOffer ?? [:],
                    customerUnit: customerUnit)
                switch try await repository.insertOfferDecision(record, followUp: try await webhookEvent(decision, record), caps: caps) {
                case .capped: continue
                case .stored(let kept):
                    let repeated = kept.id != record.id
                    if !repeated { metrics.decision(section: "retention", historyComplete: facts.historyComplete, rule: record.ruleId) }
                    let stored = repeated ? Self.storedDecision(kept) : decision
                    var answer = try await respond(request, stored, record: kept)
                    answer.repeated = repeated
                    return answer
                }
            }
            return fallback(request, .capped)
        } catch {
            logger.error("realtime decision failed", metadata: ["error": .string(StorageErrorText.describe(error))])
            return fallback(request, .error)
        }
    }

    /// Records an answer that finished after the deadline, when the App Store had already shown
    /// its fallback: a decision it stored (not a repeat of an earlier one) is marked answered late,
    /// so it uses no cap and is not pending, and its `retention.answered` event is withdrawn.
    func recordLate(_ late: RealtimeAnswer) async {
        logger.warning("a realtime decision finished after the deadline", metadata: ["stored": .stringConvertible(late.decisionId != nil)])
        guard let id = late.decisionId, !late.repeated, late.cause == .answered else { return }
        do {
            // Without a webhook URL no event was enqueued: nothing to withdraw.
            let event = offerDecider.webhooks ? WebhookEvent.dedupeKey(id) : nil
            if try await repository.markAnsweredLate(decisionId: id, withdrawing: event) {
                metrics.retentionAnsweredLate()
            }
        } catch {
            logger.error("marking a late realtime decision failed", metadata: ["error": .string(StorageErrorText.describe(error))])
        }
    }

    /// The `retention.answered` webhook event of a decision with an answer, enqueued with it (one
    /// transaction) and sent ``webhookGrace`` after the deadline; nil without a webhook URL or an answer.
    private func webhookEvent(_ decision: Decision, _ record: OfferDecisionRecord) async throws -> NewJob? {
        guard offerDecider.webhooks, let answer = decision.answer else { return nil }
        let token = try await repository.customer(originalTransactionId: record.originalTransactionId)?.appAccountToken
        let body = WebhookEvent.retentionAnswered(record, answer: answer, appAccountToken: token)
        let sendAt = record.decidedAt + (deadline + Self.webhookGrace).wholeMilliseconds
        return WebhookEvent.job(body: body, key: record.id, at: record.decidedAt, sendAt: sendAt)
    }

    /// The decision of a stored record (the engine's decision inside its JSON).
    static func storedDecision(_ record: OfferDecisionRecord) -> Decision? {
        struct Stored: Decodable { var decision: Decision }
        return try? JSONDecoder().decode(Stored.self, from: Data(record.json.utf8)).decision
    }

    /// The answer for Apple of a stored decision, its offer freshly signed.
    private func respond(_ request: DecodedRealtimeRequestBody, _ decision: Decision?, record: OfferDecisionRecord) async throws
        -> RealtimeAnswer
    {
        guard let decision, let answer = decision.answer else {
            return fallback(request, Self.cause(of: decision), decisionId: record.id)
        }
        let body: RealtimeResponseBody
        if let offer = answer.offer {
            guard let signer else { return fallback(request, .signingUnavailable, decisionId: record.id) }
            let productId = record.productId ?? request.productId
            if answer.signature == .v1 {
                let token = try await repository.customer(originalTransactionId: request.originalTransactionId)?.appAccountToken
                    .flatMap(UUID.init(uuidString:))
                let signed = try await signer.sign(productId: productId, offerId: offer.id, appAccountToken: token, transactionId: nil, format: .v1)
                guard let v1 = signed.signature, let nonce = UUID(uuidString: v1.nonce) else { throw SignatureError.invalidClaim("nonce") }
                body = .promotionalOffer(.init(messageIdentifier: answer.messageIdentifier, signature: .v1(PromotionalOfferSignatureV1(
                    encodedSignature: v1.signature, productId: productId, nonce: nonce, timestamp: v1.timestamp,
                    keyId: v1.keyIdentifier, offerIdentifier: offer.id, appAccountToken: token))))
            } else {
                // Apple: the JWS's transactionId must be the request's originalTransactionId.
                let signed = try await signer.sign(
                    productId: productId, offerId: offer.id, appAccountToken: nil, transactionId: request.originalTransactionId,
                    format: .jws)
                guard let jws = signed.jws else { throw SignatureError.invalidClaim("jws") }
                body = .promotionalOffer(.init(messageIdentifier: answer.messageIdentifier, signature: .v2(jws)))
            }
        } else if let product = answer.alternateProduct {
            body = .alternateProduct(AlternateProduct(
                messageIdentifier: answer.messageIdentifier, productId: product,
                billingPlanType: answer.billingPlanType.map(BillingPlanType.init(rawValue:))))
        } else {
            body = .message(RetentionMessageReference(messageIdentifier: answer.messageIdentifier))
        }
        return RealtimeAnswer(body: body, cause: .answered, decisionId: record.id)
    }

    /// Why a decision without an answer has none.
    static func cause(of decision: Decision?) -> RealtimeAnswer.Cause {
        guard let decision, decision.section == .retention else { return .notApplicable }
        if decision.heldOut { return .heldOut }
        if decision.blockedBy != nil { return .vetoed }
        if decision.limits.contains(where: \.exceeded) { return .capped }
        if !decision.errors.isEmpty { return .ruleError }
        return .noRule
    }
}
