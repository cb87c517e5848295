import Foundation
import VerdictStorage

/// A consumption request record as the API shows it: the request, the consent it relied on,
/// the deciding rule, the exact body for Apple, every attempt with Apple's answer, and Apple's
/// outcome. `record` holds the engine's decision (trace included), its text explanation, the
/// facts, where each body field came from and the corrections Apple's rules required.
struct ConsumptionView: Encodable {
    var id: String
    var notificationUUID: String
    var transactionId: String
    var originalTransactionId: String
    var appAccountToken: String?
    var environment: String?
    var consumptionRequestReason: String?
    var requestedAt: Int64
    var deadline: Int64
    var decidedAt: Int64
    var bundleHash: String?
    var ruleId: String?
    var ruleLine: Int?
    var blockedBy: String?
    var consentBasis: String
    /// `pending`, `sent`, `failed`, `not_sent` or `missed`.
    var state: String
    /// The exact JSON sent (or to be sent) to Apple; null when nothing is sent.
    var body: JSONFragment?
    var sentAt: Int64?
    var lastError: String?
    var attempts: [ConsumptionAttemptRecord]
    var outcome: String?
    var outcomeAt: Int64?
    var outcomes: JSONFragment
    /// Later requests for the same purchase answered by this one.
    var repeats: JSONFragment
    var record: JSONFragment

    init(_ record: ConsumptionRequestRecord, attempts: [ConsumptionAttemptRecord]) {
        id = record.id
        notificationUUID = record.notificationUUID
        transactionId = record.transactionId
        originalTransactionId = record.originalTransactionId
        appAccountToken = record.appAccountToken
        environment = record.environment
        consumptionRequestReason = record.reason
        requestedAt = record.requestedAt
        deadline = record.deadline
        decidedAt = record.decidedAt
        bundleHash = record.bundleHash
        ruleId = record.ruleId
        ruleLine = record.ruleLine
        blockedBy = record.blockedBy
        consentBasis = record.consentBasis.rawValue
        state = record.state.rawValue
        body = record.body.map(JSONFragment.init(text:))
        sentAt = record.sentAt
        lastError = record.lastError
        self.attempts = attempts
        outcome = record.outcome
        outcomeAt = record.outcomeAt
        outcomes = JSONFragment(text: record.outcomes)
        repeats = JSONFragment(text: record.repeats)
        self.record = JSONFragment(text: record.json)
    }
}
