import AppStoreServer
import Foundation
import RuleEngine
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
        if let expiresAt = record.expiresAt, !record.heldOut, !record.answeredLate {
            fields.append(Field(label: "Pending until", value: ConsoleFormat.instant(expiresAt)))
        }
        if record.trigger == RetentionDecider.trigger {
            fields.append(Field(label: "Answer on the cancel page", value: Self.realtimeAnswer(record)))
        }
        fields.append(Field(label: "Outcome", value: Self.outcome(record)))
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

    /// The outcome with what the customer did, when, and Apple's `offerType` as sent.
    private static func outcome(_ record: OfferDecisionRecord) -> String {
        guard record.outcome != nil || record.action != nil else { return "not known yet" }
        var parts = [record.outcome ?? "open"]
        if let action = record.action { parts.append("(\(action.rawValue))") }
        if let offerType = record.actionOfferType {
            let name = RuleEnum.offerType.cases.first { $0.wireValue == String(offerType) }?.name
            parts.append("offerType \(offerType)\(name.map { " \($0)" } ?? " (unknown to Verdict)")")
        }
        if let at = record.outcomeAt { parts.append(ConsoleFormat.instant(at)) }
        return parts.joined(separator: " ")
    }

    /// What Verdict answered Apple for a realtime decision: the message, and the offer or
    /// alternate product with it, or why Apple fell back.
    private static func realtimeAnswer(_ record: OfferDecisionRecord) -> String {
        let decision = RetentionDecider.storedDecision(record)
        guard let answer = decision?.answer else {
            return "none: Apple falls back (\(RetentionDecider.cause(of: decision).rawValue))"
        }
        let answered = "\(answer) — Apple's message identifier \(answer.messageIdentifier.uuidString.lowercased())"
        guard record.answeredLate else { return answered }
        return "\(answered), which reached Apple after its deadline: Apple showed its fallback, and the decision uses no cap"
    }

    /// The record's facts, pretty-printed.
    private static func facts(_ json: String) -> String {
        guard let facts = JSONValue.parse(Data(json.utf8))?.objectValue?["facts"] else { return "" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(facts)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
