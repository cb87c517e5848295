import AppStoreServer
import Foundation
import VerdictStorage

/// One decision: who, when, what (the offer's state — never its signature — or what Apple was told),
/// the outcome, the explanation condition by condition, and the facts the rules saw.
struct ConsoleDecisionView {
    struct Field {
        var label: String
        var value: String
    }

    var fields: [Field]
    var explanation: String
    var facts: String

    static let missing = ConsoleDecisionView(fields: [], explanation: "No decision is stored under this id.", facts: "")

    private init(fields: [Field], explanation: String, facts: String) {
        self.fields = fields
        self.explanation = explanation
        self.facts = facts
    }

    init(_ record: OfferDecisionRecord) {
        var fields = [
            Field(label: "Subscription", value: record.originalTransactionId),
            Field(label: "Decided", value: ConsoleFormat.instant(record.decidedAt)),
            Field(label: "Trigger", value: record.trigger),
            Field(label: "Bundle", value: record.bundleHash),
            Field(label: "Rule", value: record.ruleId.map { "\($0) (line \(record.ruleLine ?? 0))" } ?? "none"),
            Field(label: "Offer", value: record.offerId.map { "\($0) (\(record.offerType ?? ""))" } ?? "none"),
        ]
        if record.heldOut { fields.append(Field(label: "Holdout", value: "held out: no offer was made")) }
        if let expiresAt = record.expiresAt, !record.heldOut {
            fields.append(Field(label: "Pending until", value: ConsoleFormat.instant(expiresAt)))
        }
        fields.append(Field(label: "Outcome", value: record.outcome.map { "\($0) \(record.outcomeAt.map(ConsoleFormat.instant) ?? "")" } ?? "not known yet"))
        self.init(fields: fields, explanation: ConsoleFormat.member(record.json, "explanation") ?? "", facts: Self.facts(record.json))
    }

    init(_ record: ConsumptionRequestRecord) {
        var fields = [
            Field(label: "Purchase", value: record.transactionId),
            Field(label: "Subscription", value: record.originalTransactionId),
            Field(label: "Apple asked", value: "\(ConsoleFormat.instant(record.requestedAt)) (\(record.reason ?? "no reason given"))"),
            Field(label: "Deadline", value: ConsoleFormat.instant(record.deadline)),
            Field(label: "Rule", value: record.blockedBy.map { "vetoed by \($0)" } ?? record.ruleId ?? "default"),
            Field(label: "Consent", value: record.consentBasis.rawValue),
            Field(label: "State", value: record.state.rawValue),
        ]
        if let body = record.body { fields.append(Field(label: "Sent to Apple", value: body)) }
        if let error = record.lastError { fields.append(Field(label: "Last error", value: error)) }
        fields.append(Field(label: "Apple's outcome", value: record.outcome ?? "not known yet"))
        self.init(fields: fields, explanation: ConsoleFormat.member(record.json, "explanation") ?? "", facts: Self.facts(record.json))
    }

    /// The record's facts, pretty-printed.
    private static func facts(_ json: String) -> String {
        guard let facts = JSONValue.parse(Data(json.utf8))?.objectValue?["facts"] else { return "" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(facts)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
