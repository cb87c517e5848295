/// The outcome of running a bundle's tests: each test's result, rule coverage, and the summary
/// line `N passed, N failed`.
public struct RuleTestReport: Sendable {
    /// One test's outcome.
    public struct TestResult: Sendable {
        /// The test's name.
        public let name: String
        /// Where the test is written.
        public let location: BundleLocation
        /// Each unmet expectation, empty when the test passed.
        public let failures: [String]
        /// The decision the test produced (with its trace).
        public let decision: Decision

        /// Whether every expectation held.
        public var passed: Bool { failures.isEmpty }
    }

    /// Every test, in file order.
    public let results: [TestResult]
    /// Rules and vetoes no test hit (a rule is hit when it decides, would decide for a held-out
    /// customer, or matches in shadow mode; a veto when it blocks).
    public let uncovered: [RuleReference]
    /// Whether full coverage was required.
    public let coverageRequired: Bool

    /// How many tests passed.
    public var passedCount: Int { results.count { $0.passed } }
    /// How many tests failed.
    public var failedCount: Int { results.count - passedCount }

    /// `N passed, N failed`.
    public var summaryLine: String { "\(passedCount) passed, \(failedCount) failed" }

    /// No failures, and full coverage when it was required.
    public var succeeded: Bool { failedCount == 0 && (!coverageRequired || uncovered.isEmpty) }

    /// Each failure with its explanation, the coverage gaps, then `summaryLine` as the last line.
    public func render() -> String {
        var blocks: [String] = []
        for result in results where !result.passed {
            var text = "FAIL \(result.location.file):\(result.location.line): \(result.name)\n"
            text += result.failures.map { "  - \($0)" }.joined(separator: "\n")
            text += "\n" + result.decision.renderText().split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
            blocks.append(text)
        }
        if !uncovered.isEmpty {
            let label = coverageRequired ? "error" : "warning"
            blocks.append(
                "\(label): not covered by any test: "
                    + uncovered.map { "\($0.id) (\($0.file):\($0.line))" }.joined(separator: ", "))
        }
        blocks.append(summaryLine)
        return blocks.joined(separator: "\n\n")
    }
}
