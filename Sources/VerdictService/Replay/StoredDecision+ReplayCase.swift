import RuleEngine
import VerdictStorage

/// A stored record whose `record_json` cannot be replayed.
public struct UnreplayableRecord: Error, Sendable, CustomStringConvertible {
    public let id: String
    public let reason: String
    public var description: String { "decision \(id) cannot be replayed: \(reason)" }
}

/// A stored decision a replay reads: an offer decision or a consumption request.
protocol ReplayableRecord: Sendable {
    var id: String { get }
    var decidedAt: Int64 { get }
    /// The case to re-decide, its facts typed by `typer` straight from the record's JSON.
    func replayCase(typedBy typer: ReplayFactTyper) throws(UnreplayableRecord) -> TypedReplayCase
}

extension ReplayCase {
    /// The replay case of a stored offer decision (a realtime answer's is of the retention
    /// section); its outcome is `redeemed` or `retained` once known.
    public init(_ record: OfferDecisionRecord) throws(UnreplayableRecord) {
        let document = try Self.document(record.json, id: record.id)
        self.init(record, document, facts: document.facts())
    }

    /// The replay case of a stored consumption request: the consent basis of the time decides
    /// whether anything could be sent; the outcome is Apple's latest (`REFUND`, …).
    public init(_ record: ConsumptionRequestRecord) throws(UnreplayableRecord) {
        let document = try Self.document(record.json, id: record.id)
        self.init(record, document, facts: document.facts())
    }

    fileprivate init(_ record: OfferDecisionRecord, _ document: DecisionRecordJSON, facts: FactData) {
        self.init(
            id: record.id, section: record.trigger == RetentionDecider.trigger ? .retention : .offers,
            originalTransactionId: record.originalTransactionId,
            decidedAt: record.decidedAt, facts: facts, recorded: document.decision,
            recordedExplanation: document.explanation, mayShare: true, outcome: record.outcome)
    }

    fileprivate init(_ record: ConsumptionRequestRecord, _ document: DecisionRecordJSON, facts: FactData) {
        self.init(
            id: record.id, section: .refunds, originalTransactionId: record.originalTransactionId,
            transactionId: record.transactionId, decidedAt: record.decidedAt, facts: facts,
            recorded: document.decision, recordedExplanation: document.explanation,
            mayShare: record.consentBasis.allowsSending, outcome: record.outcome)
    }

    /// The parts of the record a replay reads (the decision's trace and the other members are skipped).
    fileprivate static func document(_ json: String, id: String) throws(UnreplayableRecord) -> DecisionRecordJSON {
        do {
            return try DecisionRecordJSON(json)
        } catch {
            throw UnreplayableRecord(id: id, reason: "its record is not a decision with facts (\(error))")
        }
    }
}

extension OfferDecisionRecord: ReplayableRecord {
    func replayCase(typedBy typer: ReplayFactTyper) throws(UnreplayableRecord) -> TypedReplayCase {
        let document = try ReplayCase.document(json, id: id)
        return typer.type(ReplayCase(self, document, facts: .null), factsOf: document)
    }
}

extension ConsumptionRequestRecord: ReplayableRecord {
    func replayCase(typedBy typer: ReplayFactTyper) throws(UnreplayableRecord) -> TypedReplayCase {
        let document = try ReplayCase.document(json, id: id)
        return typer.type(ReplayCase(self, document, facts: .null), factsOf: document)
    }
}
