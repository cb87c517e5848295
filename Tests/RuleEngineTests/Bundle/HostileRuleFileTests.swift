@testable import RuleEngine
import Testing

/// Rule files are input too (a reload reads whatever is in the folder): numbers that would
/// overflow and expressions nested deep enough to exhaust the stack are positioned errors, never a
/// trap.
@Suite struct HostileRuleFileTests {
    private static func offerRule(expiresAfter: String) -> String {
        BundleTestSupport.offersFile("""
                - id: save
                  when: [subscription.paidPeriods >= 1]
                  offer: {id: promo-annual-50, type: PROMOTIONAL}
                  expiresAfter: \(expiresAfter)
            """)
    }

    @Test(arguments: ["days(200000000000)", "106751991167d", "hours(9223372036854775807)", "36501d", "days(-5)"])
    func overflowingOrAbsurdDurationsAreErrors(_ duration: String) {
        let errors = BundleTestSupport.errors(rules: Self.offerRule(expiresAfter: duration))
        #expect(errors.contains { $0.message.contains("expiresAfter") }, "\(duration): \(errors.map(\.message))")
    }

    @Test func theLongestDurationIsAccepted() {
        #expect(BundleTestSupport.errors(rules: Self.offerRule(expiresAfter: "36500d")).isEmpty)
        #expect(BundleTestSupport.errors(rules: Self.offerRule(expiresAfter: "days(36500)")).isEmpty)
    }

    @Test(arguments: ["99999999999999999", "9223372036854775807", "101", "100.01"])
    func holdoutPercentagesThatWouldOverflowAreErrors(_ percent: String) {
        let rules = BundleTestSupport.offerRule(
            id: "save", when: "[subscription.paidPeriods >= 1]", top: "holdout: {percent: \(percent), unit: originalTransactionId, salt: s}")
        let errors = BundleTestSupport.errors(rules: rules)
        #expect(errors.contains { $0.message.contains("holdout.percent") }, "\(percent): \(errors.map(\.message))")
    }

    @Test(arguments: [
        String(repeating: "(", count: 10_000) + "true" + String(repeating: ")", count: 10_000),
        String(repeating: "!", count: 100_000) + "true",
        String(repeating: "-", count: 100_000) + "1 > 0",
        (0..<50_000).map { _ in "1" }.joined(separator: " + ") + " > 0",
        "subscription" + String(repeating: ".x", count: 50_000) + " > 0",
        "x" + String(repeating: "[0]", count: 50_000) + " > 0",
        String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000) + " == []",
        String(repeating: "f(", count: 20_000) + String(repeating: ")", count: 20_000),
    ])
    func deeplyNestedExpressionsAreErrors(_ condition: String) {
        do {
            _ = try Parser.parse(condition)
            Issue.record("a tree deeper than \(Parser.maximumDepth) levels parsed")
        } catch {
            #expect(error.message.contains("nested more than \(Parser.maximumDepth) levels"), "\(error.message)")
        }
    }

    @Test func nestingUpToTheLimitParses() throws {
        let nested = String(repeating: "(", count: 40) + "true" + String(repeating: ")", count: 40)
        #expect(try Parser.parse(nested).depth == 1)
        let chain = (0..<90).map { _ in "1" }.joined(separator: " + ") + " > 0"
        #expect(try Parser.parse(chain).depth == 91)
    }

    @Test func aDeepConditionInARuleFileIsAPositionedErrorOnEveryPass() {
        // Longer than a condition may be, so the compiler refuses it by length; the condition
        // analysis parses every condition too, and must meet the depth bound instead of the stack.
        let rules = BundleTestSupport.offersFile("""
                - id: save
                  when: ["\(String(repeating: "!", count: 50_000))true"]
                  offer: {id: promo-annual-50, type: PROMOTIONAL}
            """)
        let errors = BundleTestSupport.errors(rules: rules)
        #expect(!errors.isEmpty && errors.allSatisfy { $0.line > 1 }, "\(errors.map(\.message))")
    }

    @Test(arguments: [Int64.min, Int64.min + 1, -9_223_372_036_768_375_808, -1, 0, Int64.max])
    func anyTimestampRenders(_ millis: Int64) {
        let text = RuleTime.renderTimestamp(millis)
        #expect(text.hasSuffix("Z"))
    }

    @Test func renderingKeepsItsMeaningAroundTheEpoch() {
        #expect(RuleTime.renderTimestamp(-1) == "1969-12-31T23:59:59.999Z")
        #expect(RuleTime.renderTimestamp(-86_400_000) == "1969-12-31T00:00:00Z")
        #expect(RuleTime.floorDivision(.min, 86_400_000) == (-106_751_991_168, 60_424_192))
    }
}
