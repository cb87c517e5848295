import Foundation
@testable import RuleEngine
import Testing

/// An optional nested record (`subscription.commitment`): present or missing as a whole, guarded
/// with `has()`, its fields read like any other, and the facts after it where they belong — from
/// YAML test data, from JSON through the tree, and from JSON read directly.
@Suite("Facts: optional records")
struct OptionalRecordFactsTests {
    private let committed = """
        {"subscription": {"productId": "com.example.pro.annual", "commitment": {"period": 3, "periods": 12, "endsAt": 1790000000000, "autoRenew": false}},
         "purchase": {"productId": "com.example.credits"}}
        """
    private let uncommitted = """
        {"subscription": {"productId": "com.example.pro.annual"}, "purchase": {"productId": "com.example.credits"}}
        """

    private func evaluate(_ source: String, _ facts: Facts) throws -> RuleResult {
        try ExpressionCompiler.compile(source, environment: CompileEnvironment(schema: .standard))
            .evaluate(EvaluationContext(facts: facts))
    }

    /// The facts of `json` both ways the service reads it: through the tree, and directly.
    private func both(_ json: String) throws -> (tree: Facts, direct: Facts) {
        let tree = try Facts(json: Data(json.utf8))
        let direct = try Facts(json: json, range: 0..<json.utf8.count, schema: .standard)
        return (tree, direct)
    }

    @Test("the schema declares it optional, a record of its own")
    func schema() {
        #expect(FactSchema.standard.type(at: "subscription.commitment") == .optional(.record(FactDocument.Commitment.ruleRecord())))
        #expect(FactSchema.standard.type(at: "subscription.commitment.periods") == .int)
        #expect(FactSchema.standard.records.contains { $0.name == "Commitment" })
    }

    @Test("present: its fields read, and the facts after it are where they belong")
    func present() throws {
        let (tree, direct) = try both(committed)
        #expect(tree == direct)
        for facts in [tree, direct] {
            #expect(facts.value(at: "subscription.commitment.period") == .int(3))
            #expect(facts.value(at: "subscription.commitment") == .record([.int(3), .int(12), .timestamp(1_790_000_000_000), .bool(false)]))
            #expect(facts.value(at: "purchase.productId") == .string("com.example.credits"))
            #expect(try evaluate("has(subscription.commitment) && subscription.commitment.period < subscription.commitment.periods", facts)
                == .value(.bool(true)))
            #expect(try evaluate("has(subscription.commitment) && subscription.commitment.autoRenew", facts) == .value(.bool(false)))
            #expect(try evaluate("purchase.productId == 'com.example.credits'", facts) == .value(.bool(true)))
        }
    }

    @Test("missing, or null: has() is false and its fields are missing")
    func missing() throws {
        let (tree, direct) = try both(uncommitted)
        let (nullTree, nullDirect) = try both(#"{"subscription": {"commitment": null}, "purchase": {"productId": "com.example.credits"}}"#)
        for facts in [tree, direct, nullTree, nullDirect] {
            #expect(facts.value(at: "subscription.commitment") == .absent)
            #expect(facts.value(at: "subscription.commitment.period") == .absent)
            #expect(facts.value(at: "purchase.productId") == .string("com.example.credits"))
            #expect(try evaluate("has(subscription.commitment)", facts) == .value(.bool(false)))
            #expect(try evaluate("!has(subscription.commitment) || subscription.commitment.period == 12", facts) == .value(.bool(true)))
        }
        #expect(tree == direct)
        #expect(nullTree == nullDirect)
    }

    @Test("YAML test data: `~` removes a fixture's commitment")
    func yaml() throws {
        let fixture = "subscription: {commitment: {period: 12, periods: 12, endsAt: 2027-10-01, autoRenew: true}}"
        let facts = try BundleTestSupport.facts(fixture)
        #expect(facts.value(at: "subscription.commitment.endsAt") == .timestamp(RuleTime.parseTimestamp("2027-10-01")!))
        let removed = try BundleTestSupport.facts(fixture, "subscription: {commitment: ~}")
        #expect(removed.value(at: "subscription.commitment") == .absent)
    }

    @Test("its fields must be guarded, an unknown field is refused, and a wrong type names its path")
    func checks() {
        #expect(throws: ExpressionDiagnostics.self) {
            try ExpressionCompiler.compile("subscription.commitment.period > 1", environment: CompileEnvironment())
        }
        #expect(throws: ExpressionDiagnostics.self) {
            try ExpressionCompiler.compile("has(subscription.commitment) && subscription.commitment.months > 1", environment: CompileEnvironment())
        }
        #expect(throws: FactsError(path: "subscription.commitment.period", message: "expected a whole number, got 'three'")) {
            try Facts(yaml: "subscription: {commitment: {period: three}}")
        }
        #expect(throws: FactsError.self) { try Facts(yaml: "subscription: {commitment: {months: 3}}") }
    }

    @Test("an expression knows the facts it reads, through segments too")
    func referencedFacts() throws {
        let guarded = try ExpressionCompiler.compile(
            "has(subscription.commitment) && subscription.commitment.period < 12", environment: CompileEnvironment())
        #expect(guarded.reads("subscription.commitment"))
        #expect(guarded.reads("subscription.commitment.period"))
        #expect(!guarded.reads("subscription.commitment.periods"))
        #expect(!guarded.reads("subscription.commit"))
        let segment = try ExpressionCompiler.compile("subscription.ownership == ASSIGNED", environment: CompileEnvironment())
        let viaSegment = try ExpressionCompiler.compile(
            "event.type == EXPIRED && segment.member", environment: CompileEnvironment(segments: ["member": segment]))
        #expect(viaSegment.reads("subscription.ownership"))
        #expect(viaSegment.reads("event.type"))
        let rows = try ExpressionCompiler.compile(
            "customer.transactions.exists(t, t.ownership == ASSIGNED)", environment: CompileEnvironment())
        #expect(rows.reads("customer.transactions"))
        #expect(!rows.reads("subscription.ownership"))
    }
}
