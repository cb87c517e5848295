/// Runs a bundle's `*.tests.yaml` suites: each test decides with its facts (a realtime request,
/// `event.type: REALTIME_REQUEST`, with the retention section; anything else as a notification),
/// `now` and limit counts, and its `expect` entries are compared with the decision. Coverage:
/// every rule and veto should be hit by some test; `requireCoverage` makes a gap a failure of
/// the run.
public enum RuleTestRunner {
    /// Runs every suite of `bundle`.
    public static func run(bundle: RuleBundle, requireCoverage: Bool = false) -> RuleTestReport {
        var results: [RuleTestReport.TestResult] = []
        var hit: Set<String> = []
        for suite in bundle.testSuites {
            for test in suite.cases {
                let decision = test.facts.isRealtimeRequest
                    ? bundle.decideRetention(test.facts, now: test.now, limits: test.limits, explain: true)
                    : bundle.decide(test.facts, now: test.now, limits: test.limits, explain: true)
                for reference in [decision.rule, decision.counterfactualRule, decision.blockedBy].compactMap({ $0 }) {
                    hit.insert(reference.id)
                }
                for match in decision.shadowMatches { hit.insert(match.rule.id) }
                let failures = check(test, decision: decision, bundle: bundle)
                results.append(.init(name: test.name, location: test.location, failures: failures, decision: decision))
            }
        }
        let uncovered = bundle.ruleReferences.filter { !hit.contains($0.id) }
        return RuleTestReport(results: results, uncovered: uncovered, coverageRequired: requireCoverage)
    }

    private static func check(_ test: RuleTestCase, decision: Decision, bundle: RuleBundle) -> [String] {
        let expect = test.expectation
        var failures: [String] = []
        func compare(_ what: String, _ expected: RuleTestExpectation.Name?, _ actual: String?) {
            guard let expected else { return }
            let actualName = actual.map(RuleTestExpectation.Name.named) ?? .none
            if expected != actualName { failures.append("expected \(what) \(expected), got \(actualName)") }
        }
        compare("section", expect.section, decision.section?.rawValue)
        compare("offer", expect.offer, decision.offer?.id)
        compare("message", expect.message, decision.answer?.message)
        compare("alternateProduct", expect.alternateProduct, decision.answer?.alternateProduct)
        compare("rule", expect.rule, decision.rule?.id)
        compare("blockedBy", expect.blockedBy, decision.blockedBy?.id)
        compare("refundPreference", expect.refundPreference, decision.refund?.refundPreference)
        compare("deliveryStatus", expect.deliveryStatus, decision.refund?.deliveryStatus)
        if let heldOut = expect.heldOut, heldOut != decision.heldOut {
            failures.append("expected heldOut \(heldOut), got \(decision.heldOut)")
        }
        if let bucket = expect.bucket {
            let actual = decision.buckets.first { $0.purpose == "holdout" }?.bucket
            if actual != bucket { failures.append("expected holdout bucket \(bucket), got \(actual.map(String.init) ?? "none")") }
        }
        if let shadow = expect.shadowMatches {
            let actual = decision.shadowMatches.map(\.rule.id)
            if actual != shadow {
                failures.append("expected shadow matches [\(shadow.joined(separator: ", "))], got [\(actual.joined(separator: ", "))]")
            }
        }
        if let percent = expect.consumptionPercentage {
            let actual = decision.refund?.consumptionPercentage.map { $0 / 1000 }
            if actual != percent {
                failures.append("expected consumptionPercentage \(percent), got \(actual.map(String.init) ?? "none")")
            }
        }
        if let sample = expect.sampleContentProvided, decision.refund?.sampleContentProvided != sample {
            failures.append(
                "expected sampleContentProvided \(sample), got \(decision.refund?.sampleContentProvided.map(String.init) ?? "none")")
        }
        if !expect.conditions.isEmpty {
            let context = EvaluationContext(facts: test.facts, now: test.now)
            let conditions = allConditions(bundle)
            for expectation in expect.conditions {
                guard let condition = conditions.first(where: { $0.source == expectation.source }) else { continue }
                let trace = condition.expression.explain(context)
                let actual = trace.result.error == nil ? trace.value : "error"
                if actual != expectation.expected {
                    failures.append("expected `\(expectation.source)` to be \(expectation.expected), got \(trace.value)")
                }
            }
        }
        return failures
    }

    private static func allConditions(_ bundle: RuleBundle) -> [CompiledCondition] {
        var conditions: [CompiledCondition] = []
        if let offers = bundle.offers {
            conditions += offers.vetoes.map(\.condition) + offers.rules.flatMap(\.conditions)
        }
        if let refunds = bundle.refunds {
            conditions += refunds.vetoes.map(\.condition) + refunds.rules.flatMap(\.conditions)
        }
        if let retention = bundle.retention {
            conditions += retention.vetoes.map(\.condition) + retention.rules.flatMap(\.conditions)
        }
        return conditions
    }
}
