import AppStoreServer
import Foundation
import RuleEngine
import VerdictStorage

/// Decides what Verdict tells Apple about a refund request: gathers the facts (the purchase from
/// the `CONSUMPTION_REQUEST`, the customer's stored history, what the app reported, the consent
/// basis), runs the active bundle's refunds section, builds the exact Send Consumption
/// Information body (``ConsumptionBody``: rule values over app facts over safe defaults,
/// conformed to Apple's V2 rules), and stores the record with its submission job in one
/// transaction. Nothing is sent without consent, when a veto blocks, or when no refunds rule applies.
///
/// **Members' transactions.** Apple refuses consumption information about a group member's
/// `ASSIGNED` transaction (4000227). A request about one is decided and recorded like any other
/// (the rules' decision kept, so it can be replayed), but not applicable: `not_sent`, blocked by
/// ``assignedTransactionGuard`` rather than by a rule, and nothing is enqueued for Apple.
public struct RefundDecider: Sendable {
    /// Why no record could be made.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case noRules
        case noPurchase
        case invalidFacts(String)

        public var description: String {
            switch self {
            case .noRules: "no valid rule bundle is loaded"
            case .noPurchase: "the notification carries no transaction with a transactionId"
            case .invalidFacts(let reason): "the facts do not fit the bundle's schema: \(reason)"
            }
        }
    }

    /// Apple's deadline after the notification's `signedDate`: 12 hours.
    public static let answerWindowMilliseconds: Int64 = 12 * 3_600_000
    /// The `blockedBy` of a request about a member's `ASSIGNED` transaction.
    public static let assignedTransactionGuard = ReservedRuleIds.assignedTransaction
    /// Why nothing is sent about a member's `ASSIGNED` transaction.
    static let assignedTransactionReason =
        "the purchase is a group member's ASSIGNED transaction: Apple accepts no consumption information about it (4000227)"

    /// The stores a decision reads and writes.
    public typealias Stores =
        ConsentStore & ConsumptionRequestStore & CustomerAttributeStore & CustomerStore & TransactionFactStore & TransactionStore

    let repository: any Stores
    let rules: BundleStore
    let assumeConsent: Bool
    let metrics: ServiceMetrics
    let now: @Sendable () -> Date

    public init(repository: any Stores, rules: BundleStore, assumeConsent: Bool, metrics: ServiceMetrics,
                now: @escaping @Sendable () -> Date) {
        self.repository = repository
        self.rules = rules
        self.assumeConsent = assumeConsent
        self.metrics = metrics
        self.now = now
    }

    /// Decides one `CONSUMPTION_REQUEST` and stores the record (once per notification).
    public func decide(_ notification: ProcessedNotification) async throws -> ConsumptionRequestInsertResult {
        guard let bundle = rules.current else { throw Failure.noRules }
        let stored = notification.record.notification
        guard let purchase = notification.content.transaction, let transactionId = purchase.transactionId else {
            throw Failure.noPurchase
        }
        let originalTransactionId = purchase.originalTransactionId ?? transactionId
        // The token on Apple's purchase, else the one the customer's subscription chain carries.
        let customer = try await repository.customer(originalTransactionId: originalTransactionId)
        let token = purchase.appAccountToken?.uuidString.lowercased() ?? customer?.appAccountToken
        let historyComplete = customer?.historySyncedAt != nil
        // The newest answer recorded for the purchase's token or for its chain (all renewals).
        let consentKeys = [ConsentKey.originalTransactionId(originalTransactionId)] + (token.map { [.appAccountToken($0)] } ?? [])
        let consent = try await repository.consents(keys: consentKeys, limit: 1).first
        var attributes: JSONValue?
        if let token {
            attributes = try await repository.customerAttributes(appAccountToken: token).flatMap { JSONValue.parse(Data($0.json.utf8)) }
        }
        let basis = ConsumptionRequestRecord.ConsentBasis.basis(newest: consent, assumeConsent: assumeConsent)
        let reported = try await repository.transactionFacts(transactionId: transactionId)
        let event = notification.event
        let facts = ConsumptionFacts(
            event: event, reason: notification.content.payload.data?.consumptionRequestReason, purchase: purchase,
            transactions: try await history(originalTransactionId: originalTransactionId, appAccountToken: token, except: transactionId),
            usage: .init(reported, consented: basis.allowsSending), attributes: attributes, historyComplete: historyComplete)
        let document = facts.document
        let typed: Facts
        do {
            typed = try Facts(FactData(document), schema: bundle.schema)
        } catch {
            throw Failure.invalidFacts(error.description)
        }
        let decision = RuleEvaluationSpan.evaluate(.refunds, bundle: bundle, app: metrics.app ?? "") {
            bundle.decide(typed, now: stored.signedDate)
        }
        let decidedAt = now().appStoreMilliseconds
        let request = Request(
            notificationUUID: stored.notificationUUID, transactionId: transactionId, originalTransactionId: originalTransactionId,
            appAccountToken: token, environment: stored.environment, reason: facts.reason?.rawValue,
            requestedAt: stored.signedDate, productType: purchase.type, reported: reported, consent: consent, basis: basis,
            historyComplete: historyComplete, assigned: purchase.inAppOwnershipType == .assigned)
        let record = try Self.record(decision, facts: document, for: request, bundle: bundle,
                                     id: UUID().uuidString.lowercased(), decidedAt: decidedAt)
        let job = ConsumptionSubmissionJob.job(requestId: record.id, transactionId: transactionId, deadline: record.deadline,
                                               at: decidedAt)
        let result = try await repository.insertConsumptionRequest(record, submission: job)
        if case .inserted = result { metrics.decision(section: "refunds", historyComplete: historyComplete, rule: record.ruleId) }
        return result
    }

    /// The customer's stored transactions: everything linked to the purchase's chain (see
    /// ``TransactionStore/customerTransactions(originalTransactionId:)``) and everything with the
    /// purchase's own token, each decoded once — but the purchase (`except`): its copy from the
    /// notification, in hand, is the one the facts use.
    func history(originalTransactionId: String, appAccountToken: String?, except purchaseId: String) async throws
        -> [JWSTransactionDecodedPayload] {
        var records = try await repository.customerTransactions(originalTransactionId: originalTransactionId)
        if let appAccountToken { records += try await repository.transactions(appAccountToken: appAccountToken) }
        let decoder = AppStoreJSON.decoder()
        var seen: Set<String> = [purchaseId]
        return try records.filter { seen.insert($0.transactionId).inserted }.map { try $0.payload(decoder) }
    }

    /// What a decided request is stored with besides the decision: the notification, the
    /// purchase, what the app reported and the consent of the time.
    struct Request {
        var notificationUUID: String
        var transactionId: String
        var originalTransactionId: String
        var appAccountToken: String?
        var environment: String?
        /// Apple's `consumptionRequestReason`.
        var reason: String?
        /// The notification's `signedDate`.
        var requestedAt: Int64
        var productType: ProductType?
        var reported: TransactionFactsRecord?
        var consent: ConsentRecord?
        var basis: ConsumptionRequestRecord.ConsentBasis
        var historyComplete: Bool
        /// Whether the purchase is a group member's `ASSIGNED` transaction.
        var assigned = false
    }

    /// The stored record of `decision` (made by `bundle` on `facts`): the exact body for Apple —
    /// `pending`, to be sent — or why nothing is sent (`not_sent`), and the record JSON. A member's
    /// `ASSIGNED` transaction is not sent whatever the rules decided: the guard, not a rule, blocked it.
    static func record(_ decision: Decision, facts: JSONValue, for request: Request, bundle: RuleBundle, id: String,
                       decidedAt: Int64) throws -> ConsumptionRequestRecord {
        var body: ConsumptionBody?
        var notSent: String?
        if request.assigned {
            notSent = assignedTransactionReason
        } else if decision.section != .refunds {
            notSent = "no refunds rule applies to this notification"
        } else if let veto = decision.blockedBy {
            notSent = "vetoed by \(veto.id)"
        } else if let refusal = request.basis.refusal {
            notSent = refusal
        } else {
            // Even past the deadline the submission job is enqueued: it records the miss.
            body = ConsumptionBody(response: decision.refund, reported: request.reported, productType: request.productType)
        }
        // A member's transaction: the guard decided, not the rule.
        let (ruleId, ruleLine, blockedBy) = request.assigned
            ? (nil, nil, assignedTransactionGuard)
            : (decision.rule?.id, decision.rule?.line, decision.blockedBy?.id)
        return ConsumptionRequestRecord(
            id: id, notificationUUID: request.notificationUUID, transactionId: request.transactionId,
            originalTransactionId: request.originalTransactionId, appAccountToken: request.appAccountToken,
            environment: request.environment, reason: request.reason, requestedAt: request.requestedAt,
            deadline: request.requestedAt + Self.answerWindowMilliseconds, decidedAt: decidedAt,
            bundleHash: bundle.hash, ruleId: ruleId, ruleLine: ruleLine, blockedBy: blockedBy,
            consentBasis: request.basis, state: notSent == nil ? .pending : .notSent,
            body: try body.map { String(decoding: try $0.encoded(), as: UTF8.self) },
            json: try Self.recordJSON(decision, facts: facts, consent: request.consent, basis: request.basis, body: body,
                                      notSent: notSent, historyComplete: request.historyComplete))
    }

    /// `{"decision", "explanation", "facts", "consent", "body", "notSentReason", "historyComplete"}`.
    static func recordJSON(_ decision: Decision, facts: JSONValue, consent: ConsentRecord?,
                           basis: ConsumptionRequestRecord.ConsentBasis, body: ConsumptionBody?, notSent: String?,
                           historyComplete: Bool) throws -> String {
        struct Record: Encodable {
            var decision: Decision
            var explanation: String
            var facts: JSONValue
            var consent: ConsentView
            var body: ConsumptionBody.Explanation?
            var notSentReason: String?
            var historyComplete: Bool
        }
        let record = Record(
            decision: decision, explanation: decision.renderText(), facts: facts,
            consent: ConsentView(basis: basis, entry: consent), body: body?.explanation, notSentReason: notSent,
            historyComplete: historyComplete)
        return String(decoding: try JSONEncoder.service.encode(record), as: UTF8.self)
    }
}

extension ConsumptionFacts.Usage {
    /// The usage facts from what the app reported (nothing reported: only consent is known).
    init(_ reported: TransactionFactsRecord?, consented: Bool) {
        self.init(
            deliveryStatus: reported?.deliveryStatus.map(DeliveryStatus.init(rawValue:)),
            consumptionPercentage: reported?.consumptionPercentage, sampleContentProvided: reported?.sampleContentProvided,
            sessionsSincePurchase: reported?.sessionsSincePurchase, consented: consented)
    }
}
