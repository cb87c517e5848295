/// One `CONSUMPTION_REQUEST` as decided and answered: which purchase, why the customer asked,
/// the consent basis, the rule that decided (bundle, rule and line), the exact body for Apple,
/// where the submission stands, and later Apple's outcome. The full record (the engine's decision
/// with its trace and explanation, the facts it saw, corrections) is kept as JSON.
public struct ConsumptionRequestRecord: Sendable, Equatable {
    /// Where the answer to Apple stands.
    public enum State: String, Sendable, Codable, CaseIterable {
        /// Queued for Send Consumption Information (or waiting for credentials / a retry).
        case pending
        /// Apple accepted the body (202).
        case sent
        /// Apple refused the body with a permanent error.
        case failed
        /// Nothing is sent: no consent, a veto, no refunds rules apply, or the purchase is a group
        /// member's `ASSIGNED` transaction (Apple refuses consumption information for it).
        case notSent = "not_sent"
        /// The deadline passed before Apple accepted an answer.
        case missed
    }

    /// On what basis Verdict may share consumption data.
    public enum ConsentBasis: String, Sendable, Codable, CaseIterable {
        /// The customer's newest consent-ledger entry says yes.
        case recorded
        /// No entry, and `VERDICT_ASSUME_CONSENT=true` (the app's terms grant consent).
        case assumed
        /// The customer's newest entry says no.
        case refused
        /// No entry and consent is not assumed.
        case none

        /// Whether consumption data may be sent.
        public var allowsSending: Bool { self == .recorded || self == .assumed }
    }

    /// A UUID (lowercase).
    public var id: String
    public var notificationUUID: String
    /// The purchase the customer asked Apple to refund (from the notification's transaction).
    public var transactionId: String
    public var originalTransactionId: String
    public var appAccountToken: String?
    /// `Production` or `Sandbox`: picks Apple's host.
    public var environment: String?
    /// Apple's `consumptionRequestReason`.
    public var reason: String?
    /// The notification's `signedDate` (UNIX ms).
    public var requestedAt: Int64
    /// `requestedAt` + 12 hours: Apple's deadline for the answer.
    public var deadline: Int64
    public var decidedAt: Int64
    public var bundleHash: String?
    public var ruleId: String?
    public var ruleLine: Int?
    /// The veto that blocked the answer, or the guard that did (`assigned-transaction`), if any.
    public var blockedBy: String?
    public var consentBasis: ConsentBasis
    public var state: State
    /// The exact JSON body for Apple; nil when nothing is to be sent.
    public var body: String?
    /// The full record as JSON: decision, explanation, facts, consent, corrections, body sources.
    public var json: String
    /// When Apple accepted the body.
    public var sentAt: Int64?
    /// The last failure, for people.
    public var lastError: String?
    /// Apple's latest outcome: `REFUND`, `REFUND_DECLINED`, `REFUND_REVERSED`, or `REFUND_SEATS`
    /// (a `REFUND` with subtype `SEATS`: some seats of a multiseat purchase, not a full refund).
    public var outcome: String?
    public var outcomeAt: Int64?
    /// Every outcome notification joined to this request, oldest first, as a JSON array.
    public var outcomes: String
    /// Later `CONSUMPTION_REQUEST`s for the same purchase answered by this one, as a JSON array.
    public var repeats: String

    public init(id: String, notificationUUID: String, transactionId: String, originalTransactionId: String,
                appAccountToken: String?, environment: String?, reason: String?, requestedAt: Int64, deadline: Int64,
                decidedAt: Int64, bundleHash: String?, ruleId: String?, ruleLine: Int?, blockedBy: String?,
                consentBasis: ConsentBasis, state: State, body: String?, json: String,
                sentAt: Int64? = nil, lastError: String? = nil, outcome: String? = nil, outcomeAt: Int64? = nil,
                outcomes: String = "[]", repeats: String = "[]") {
        self.id = id
        self.notificationUUID = notificationUUID
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.appAccountToken = appAccountToken
        self.environment = environment
        self.reason = reason
        self.requestedAt = requestedAt
        self.deadline = deadline
        self.decidedAt = decidedAt
        self.bundleHash = bundleHash
        self.ruleId = ruleId
        self.ruleLine = ruleLine
        self.blockedBy = blockedBy
        self.consentBasis = consentBasis
        self.state = state
        self.body = body
        self.json = json
        self.sentAt = sentAt
        self.lastError = lastError
        self.outcome = outcome
        self.outcomeAt = outcomeAt
        self.outcomes = outcomes
        self.repeats = repeats
    }
}

/// What storing a decided consumption request did.
public enum ConsumptionRequestInsertResult: Sendable, Equatable {
    /// Stored (and its submission enqueued when pending).
    case inserted(ConsumptionRequestRecord)
    /// The notification was decided before (a re-run job): the stored record, unchanged.
    case alreadyDecided(ConsumptionRequestRecord)
    /// A request for the same purchase is pending or sent: this notification was added to its
    /// `repeats` and nothing new will be sent.
    case repeated(ConsumptionRequestRecord)

    /// The record the notification is answered by.
    public var record: ConsumptionRequestRecord {
        switch self {
        case .inserted(let record), .alreadyDecided(let record), .repeated(let record): record
        }
    }
}
