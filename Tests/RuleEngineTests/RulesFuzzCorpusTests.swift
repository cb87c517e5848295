import Foundation
import FuzzTargets
import Testing

/// The rules fuzz target's committed inputs, replayed: each regression in `Fuzz/rules/crashes`
/// (inputs that once trapped or exhausted the stack: nesting 10,000 deep, `days()` past `Int64`,
/// times rendered near `Int64.min`, a huge holdout percentage) is refused or decided without a
/// trap, and every seed in `Fuzz/rules/corpus` runs to an outcome, most of them to a decision.
@Suite struct RulesFuzzCorpusTests {
    @Test func everyRegressionEndsInDiagnosticsOrADecision() throws {
        let target = RulesFuzzTarget()
        let crashes = try FuzzCorpus.inputs("rules", "crashes")
        #expect(crashes.count >= 5)
        for (name, input) in crashes {
            let outcome = target.run(input)
            if name.hasPrefix("expression-nested") || name.hasPrefix("expression-not-chain") || name.hasPrefix("rules-holdout") {
                #expect(outcome != .decided(rule: "r"), "\(name): \(outcome)")
                guard case .refused(let errors) = outcome else {
                    Issue.record("\(name) must be refused: \(outcome)")
                    continue
                }
                #expect(errors > 0, "\(name)")
            }
        }
    }

    @Test func everySeedRunsAndMostDecide() throws {
        let target = RulesFuzzTarget()
        let seeds = try FuzzCorpus.inputs("rules", "corpus")
        var decided = 0
        for (_, input) in seeds {
            if case .decided = target.run(input) { decided += 1 }
        }
        #expect(seeds.count >= 10 && decided >= seeds.count / 2, "\(decided) of \(seeds.count) decided")
    }
}
