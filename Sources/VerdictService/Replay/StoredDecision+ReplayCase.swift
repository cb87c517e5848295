import Foundation
import RuleEngine
import VerdictStorage

/// The part of a stored decision record a replay reads: the decision, its explanation and the
/// facts it saw (the record's other members are skipped unread).
private struct StoredDecisionDocument: Decodable {
    var decision: Decision
    var explanation: String?
    var facts: FactData
}

/// A stored record whose `record_json` cannot be replayed.
public struct UnreplayableRecord: Error, Sendable, CustomStringConvertible {
    public let id: String
    public let reason: String
    public var description: String { "decision \(id) cannot be replayed: \(reason)" }
}

extension ReplayCase {
    /// The replay case of a stored offer decision; its outcome is `redeemed` or `retained` once known.
    public init(_ record: OfferDecisionRecord, decoder: JSONDecoder) throws(UnreplayableRecord) {
        let document = try Self.document(record.json, id: record.id, decoder: decoder)
        self.init(
            id: record.id, section: .offers, originalTransactionId: record.originalTransactionId,
            decidedAt: record.decidedAt, facts: document.facts, recorded: document.decision,
            recordedExplanation: document.explanation, mayShare: true, outcome: record.outcome)
    }

    /// The replay case of a stored consumption request: the consent basis of the time decides
    /// whether anything could be sent; the outcome is Apple's latest (`REFUND`, …).
    public init(_ record: ConsumptionRequestRecord, decoder: JSONDecoder) throws(UnreplayableRecord) {
        let document = try Self.document(record.json, id: record.id, decoder: decoder)
        self.init(
            id: record.id, section: .refunds, originalTransactionId: record.originalTransactionId,
            transactionId: record.transactionId, decidedAt: record.decidedAt, facts: document.facts,
            recorded: document.decision, recordedExplanation: document.explanation,
            mayShare: record.consentBasis.allowsSending, outcome: record.outcome)
    }

    private static func document(_ json: String, id: String, decoder: JSONDecoder) throws(UnreplayableRecord)
        -> StoredDecisionDocument {
        do {
            return try decoder.decode(StoredDecisionDocument.self, from: Data(json.utf8))
        } catch {
            throw UnreplayableRecord(id: id, reason: "its record is not a decision with facts (\(error))")
        }
    }
}
