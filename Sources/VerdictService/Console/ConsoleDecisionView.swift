import AppStoreServer
import Foundation
import RuleEngine
import VerdictStorage

/// One decision: who, when, what (the offer's state — never its signature — or what Apple was told),
/// the outcome, the explanation condition by condition, and the facts the rules saw (a table, and
/// the JSON as stored). The subscription and its appAccountToken link to the customer's timeline,
/// the rule (or veto) to its line on the Rules page.
struct ConsoleDecisionView {
    /// A label and its value; `link` makes the value a link, `before` and `after` are plain text
    /// around it.
    struct Field {
        var label: String
        var value: String
        var link: String?
        var before: String?
        var after: String?
        /// An identifier: set in monospace.
        var code = false
    }

    /// What the page links to besides the record: the subscription's appAccountToken where known,
    /// and the app's active bundle (its rules are the Rules page's rows, its schema types the
    /// facts); `links` keep the app.
    struct Context {
        var appAccountToken: String?
        var bundle: RuleBundle?
        var links: ConsoleLinks
    }

    var fields: [Field]
    var explanation: String
    var factsTable: ConsoleFactsTable?
    /// The facts as stored, pretty-printed (nil without facts).
    var factsJSON: String?

    static let missing = ConsoleDecisionView(fields: [], explanation: "No decision is stored under this id.", facts: nil, json: nil)

    private init(fields: [Field], explanation: String, facts: ConsoleFactsTable?, json: String?) {
        self.fields = fields
        self.explanation = explanation
        self.factsTable = facts
        self.factsJSON = json
    }

    /// `json`, the stored record, read once: its explanation and its facts (a table, and pretty-printed).
    private init(fields: [Field], json: String, context: Context) {
        let record = JSONValue.parse(Data(json.utf8))?.objectValue
        let facts = record?["facts"]
        self.init(
            fields: fields, explanation: record?["explanation"]?.stringValue ?? "",
            facts: facts.flatMap { $0.objectValue?.isEmpty == false ? ConsoleFactsTable(facts: $0, schema: context.bundle?.schema ?? .standard) : nil },
            json: facts.flatMap(Self.pretty))
    }

    init(_ record: OfferDecisionRecord, context: Context) {
        var fields = Self.subscription(record.originalTransactionId, context: context)
        fields += [
            Field(label: "Decided", value: ConsoleFormat.instant(record.decidedAt)),
            Field(label: "Trigger", value: record.trigger),
            Field(label: "Bundle", value: record.bundleHash),
            record.ruleId.map { Self.rule($0, line: record.ruleLine, context: context) } ?? Field(label: "Rule", value: "none"),
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
        self.init(fields: fields, json: record.json, context: context)
    }

    init(_ record: ConsumptionRequestRecord, context: Context) {
        var fields = [Field(label: "Purchase", value: record.transactionId, code: true)]
        fields += Self.subscription(record.originalTransactionId, context: context)
        fields += [
            Field(label: "Apple asked", value: "\(ConsoleFormat.instant(record.requestedAt)) (\(record.reason ?? "no reason given"))"),
            Field(label: "Deadline", value: ConsoleFormat.instant(record.deadline)),
        ]
        if ConsoleRefundsView.isNotApplicable(record) {
            fields.append(Field(label: "Rule", value: ConsoleRefundsView.decidedBy(record)))
        } else if let veto = record.blockedBy {
            var field = Self.rule(veto, line: nil, context: context)
            field.before = "vetoed by "
            fields.append(field)
        } else if let ruleId = record.ruleId {
            fields.append(Self.rule(ruleId, line: record.ruleLine, context: context))
        } else {
            fields.append(Field(label: "Rule", value: "default"))
        }
        fields += [
            Field(label: "Consent", value: record.consentBasis.rawValue),
            Field(label: "State", value: record.state.rawValue),
        ]
        if let body = record.body { fields.append(Field(label: "Sent to Apple", value: body)) }
        if let error = record.lastError { fields.append(Field(label: "Last error", value: error)) }
        fields.append(Field(label: "Apple's outcome", value: record.outcome ?? "not known yet"))
        self.init(fields: fields, json: record.json, context: context)
    }

    /// The subscription, and its appAccountToken where known, each linked to the customer's
    /// timeline (the Customer page's search finds a subscriber by either; a token that is not a
    /// UUID is not searchable, so it is shown unlinked).
    private static func subscription(_ originalTransactionId: String, context: Context) -> [Field] {
        var fields = [Field(label: "Subscription", value: originalTransactionId, link: context.links.customer(originalTransactionId), code: true)]
        if let token = context.appAccountToken {
            fields.append(Field(
                label: "appAccountToken", value: token, link: UUID(uuidString: token) == nil ? nil : context.links.customer(token), code: true))
        }
        return fields
    }

    /// The rule (or veto) that decided, linked to its line on the Rules page when the active bundle
    /// has it.
    private static func rule(_ id: String, line: Int?, context: Context) -> Field {
        let active = context.bundle?.ruleReferences.contains { $0.id == id } ?? false
        let notes = [line.map { "line \($0)" }, active ? nil : "not in the active bundle"].compactMap { $0 }
        return Field(
            label: "Rule", value: id, link: active ? context.links.rule(id) : nil,
            after: notes.isEmpty ? nil : "(\(notes.joined(separator: "; ")))")
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

    /// The facts, pretty-printed.
    private static func pretty(_ facts: JSONValue) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(facts)).map { String(decoding: $0, as: UTF8.self) }
    }
}
