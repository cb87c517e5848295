import AppStoreServer
import Foundation
import Testing

@testable import RuleEngine

/// A stored decision record read for a replay: the decision without its trace, the explanation
/// and the facts, other members skipped; anything else is refused with a reason.
@Suite("Replay: reading a stored decision record")
struct ReplayRecordJSONTests {
    static func record() throws -> (json: String, decision: Decision, facts: FactData) {
        let bundle = try BundleTestSupport.bundle(rules: RuleReplayTests.twoRules)
        let yaml = ReplayTestSupport.autoRenewOff("7", price: "59.99 USD", at: ReplayTestSupport.start)
        let data = try FactData(yaml: yaml)
        let decision = bundle.decide(try Facts(data, schema: bundle.schema))
        #expect(!decision.trace.isEmpty)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let decisionJSON = String(decoding: try encoder.encode(decision), as: UTF8.self)
        // Facts as the service writes them: JSON scalars, not YAML strings.
        let facts = #"{"event": {"type": "DID_CHANGE_RENEWAL_STATUS", "signedDate": 1796126400000}, "n": [1, 2.5, "x\u00e9"]}"#
        let json = #"{"body": {"a": [1, {"b": "}"}]}, "decision": \#(decisionJSON), "explanation": "line 1\nline 2", "#
            + #""facts": \#(facts), "historyComplete": true}"#
        return (json, decision, try FactData(json: Data(facts.utf8)))
    }

    @Test("the decision (without its trace), the explanation and the facts")
    func reads() throws {
        let (json, decision, facts) = try Self.record()
        let read = try DecisionRecordJSON(json)
        var expected = decision
        expected.trace = []
        #expect(read.decision == expected)
        #expect(read.explanation == "line 1\nline 2")
        #expect(read.facts() == facts)
    }

    /// A record around `facts` (JSON text).
    static func record(facts: String) throws -> DecisionRecordJSON {
        try DecisionRecordJSON(#"{"decision": {"bundle": "sha256:x", "buckets": [], "corrections": [], "errors": [], "#
            + #""heldOut": false, "limits": [], "shadowMatches": [], "trace": [{"x": 1, "y": "] } \" [ {\\"}]}, "#
            + #""facts": \#(facts)}"#)
    }

    @Test("facts typed straight from the record's text are the facts typed from the tree, errors included")
    func typedStraight() throws {
        let bundle = try BundleTestSupport.bundle(rules: RuleReplayTests.twoRules)
        let generator = SyntheticFacts(
            historyLength: 12, monthlyProductId: "m", annualProductId: "a", consumableProductId: "c", subscriptionGroup: "g",
            winBackOfferIds: ["w"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var documents: [String] = []
        for (customer, event) in zip(0..<9, SyntheticFacts.Event.allCases + SyntheticFacts.Event.allCases + SyntheticFacts.Event.allCases) {
            var document = generator.document(customer: customer, signedDate: ReplayTestSupport.start, event: event).json
            if case .object(var root) = document, customer == 4 {
                // Attributes the bundle does not declare: typed as an error, the same either way.
                root["customer"] = .object(["attributes": .object(["undeclared": .integer(1)])])
                document = .object(root)
            }
            documents.append(String(decoding: try encoder.encode(document), as: UTF8.self))
        }
        documents += [
            #"{"event": {"type": "EXPIRED", "signedDate": "2026-12-01T12:00:00Z"}, "subscription": null, "customer": {}}"#,
            #"{"event": {"type": "EXPIRED"}, "unknown": 1, "subscription": {"price": 3}}"#,
            #"{"event": {"type": "EXPIRED"}, "subscription": {"price": 3}}"#,
            #"{"event": {"type": "NOT_A_TYPE"}}"#,
            #"{"event": {"type": "EXPIRED"}, "event": {"type": 1}}"#,
            #"{"customer": {"transactions": [{"price": "1.00 USD"}, {"price": true}]}}"#,
            #"{"customer": {"transactions": {"price": "1.00 USD"}}}"#,
            #"{"customer": {"lifetimePurchased": {"USD": "1.00 EUR"}}}"#,
            #"[1]"#, "null", #"{"event": null}"#,
        ]
        for facts in documents {
            let record = try Self.record(facts: facts)
            let straight = ReplayFactTyper(schema: bundle.schema, servesEveryBundle: true)
                .type(ReplayCase(id: "1", section: .offers, originalTransactionId: "1", decidedAt: 0, facts: .null,
                                 recorded: record.decision), factsOf: record)
            let tree = Result { () throws(FactsError) in try Facts(FactData(json: Data(facts.utf8)), schema: bundle.schema) }
            switch (straight.typed, tree) {
            case (.success(let lhs), .success(let rhs)): #expect(lhs == rhs, "\(facts)")
            case (.failure(let lhs), .failure(let rhs)): #expect(lhs.description == rhs.description, "\(facts)")
            default: Issue.record("\(facts): \(straight.typed) but from the tree \(tree)")
            }
            #expect(straight.replayCase.facts == .null)
        }
    }

    @Test("recorded decisions of every kind read back as Foundation's decoder reads them, trace aside")
    func decisionsOfEveryKind() throws {
        let bundle = try RuleBundle.load(directory: ShippedBundleTests.rulesDirectory)
        let generator = SyntheticFacts(
            historyLength: 24, monthlyProductId: "com.lumen.pro.monthly", annualProductId: "com.lumen.pro.annual",
            consumableProductId: "com.lumen.credits.100", subscriptionGroup: "21482345",
            winBackOfferIds: ["lumen-winback-monthly-2free", "lumen-winback-monthly-50off"])
        // Counts that exhaust the budget of the 40%-off offer: capped decisions too.
        let limits = InMemoryLimits(fixed: [.offer("lumen-annual-40off"): 1_000])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var seen: Set<String> = []
        for customer in 0..<400 {
            let event = SyntheticFacts.Event.allCases[customer % 3]
            let document = generator.document(customer: customer, signedDate: ReplayTestSupport.start + Int64(customer) * 3_600_000,
                                              event: event)
            let decision = bundle.decide(try Facts(FactData(document.json), schema: bundle.schema), limits: limits)
            let json = String(decoding: try encoder.encode(decision), as: UTF8.self)
            var expected = try JSONDecoder().decode(Decision.self, from: Data(json.utf8))
            expected.trace = []
            let read = try DecisionRecordJSON(#"{"facts": {}, "decision": \#(json)}"#).decision
            #expect(read == expected, "\(json)")
            // The fast reading itself, not the fallback.
            let tree = try FactData(json: Data(json.utf8))
            guard case .object(var members) = tree else { continue }
            members["trace"] = nil
            #expect(try Decision(tree: .object(members)) == expected)
            for (kind, present) in [("heldOut", decision.heldOut), ("shadow", !decision.shadowMatches.isEmpty),
                                    ("capped", decision.limits.contains(where: \.exceeded)),
                                    ("corrections", !decision.corrections.isEmpty), ("refund", decision.refund != nil),
                                    ("blocked", decision.blockedBy != nil), ("win-back", decision.offer?.type == .winBackOffer)]
                where present { seen.insert(kind) }
        }
        #expect(seen == ["heldOut", "shadow", "capped", "refund", "blocked", "win-back"])

        // What the shipped rules never produce: corrections, errors, an offer's own expiry.
        let rule = RuleReference(id: "credits", file: "r.yaml", line: 3)
        let correction = ConsumptionCorrection(field: "consumptionPercentage", from: "30000", to: nil, reason: "not delivered")
        var crafted = Decision(bundle: "sha256:x", now: DecisionInstant(millis: ReplayTestSupport.start), section: .refunds)
        crafted.refund = .init(refundPreference: nil, consumptionPercentage: 0, deliveryStatus: "DELIVERED", sampleContentProvided: true)
        crafted.rule = rule
        crafted.counterfactual = .init(id: "o", type: .promotionalOffer, expiresAfter: DecisionDuration(millis: 36 * 3_600_000))
        crafted.corrections = [Decision.Correction(rule: rule, correction)]
        crafted.shadowMatches = [.init(rule: rule, offer: nil, refund: crafted.refund, corrections: [correction])]
        crafted.errors = [.init(rule: rule, message: "cannot evaluate")]
        let json = String(decoding: try encoder.encode(crafted), as: UTF8.self)
        #expect(try DecisionRecordJSON(#"{"facts": {}, "decision": \#(json)}"#).decision == crafted)
        guard case .object(var members) = try FactData(json: Data(json.utf8)) else { return }
        members["trace"] = nil
        #expect(try Decision(tree: .object(members)) == crafted)
    }

    @Test("a missing or null explanation is nil")
    func noExplanation() throws {
        let (json, _, _) = try Self.record()
        let withoutExplanation = json.replacingOccurrences(of: #""explanation": "line 1\nline 2", "#, with: "")
        #expect(try DecisionRecordJSON(withoutExplanation).explanation == nil)
        let nullExplanation = json.replacingOccurrences(of: #""line 1\nline 2""#, with: "null")
        #expect(try DecisionRecordJSON(nullExplanation).explanation == nil)
    }

    @Test("what is not a decision record is refused with a reason", arguments: [
        ("{}", "no decision"),
        (#"{"decision": {}}"#, "no facts"),
        ("[1]", "not a decision record"),
        (#"{"decision": 1, "facts": {}}"#, "not a decision record"),
        (#"{"decision": {"trace": [1]}, "facts": {}}"#, "its decision cannot be read"),
        (#"{"decision": {"trace": []}, "facts": {}, "explanation": 3}"#, "not a decision record"),
        (#"{"decision": {}, "facts": {} "#, "not a decision record"),
        // Foundation's decoder refused the whole record for a number no double holds.
        (#"{"decision": {}, "facts": {"event": {"signedDate": 1e400}}}"#, "not a decision record"),
    ])
    func refuses(_ json: String, _ reason: String) {
        #expect(throws: DecisionRecordJSON.Failure.self) { try DecisionRecordJSON(json) }
        do {
            _ = try DecisionRecordJSON(json)
        } catch {
            #expect(error.description.contains(reason), "\(json): \(error)")
        }
    }
}
