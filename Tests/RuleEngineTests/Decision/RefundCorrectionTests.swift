import Foundation
import RuleEngine
import Testing

/// Refund answers computed from facts that break Apple's consumption rules are corrected (not
/// skipped), and each correction is recorded in the decision, its JSON and its explanation.
/// Problems that are not Apple's rules still skip the rule.
@Suite("Decision: refund answers corrected for Apple")
struct RefundCorrectionTests {
    let rules = BundleTestSupport.refundsFile("""
            - id: shadow-full
              mode: shadow
              when:
                - purchase.productType != AUTO_RENEWABLE
                - has(usage.consumptionPercentage)
              respond: {refundPreference: GRANT_FULL, consumptionPercentage: usage.consumptionPercentage}
            - id: overflowing
              when:
                - purchase.productType == CONSUMABLE
                - has(usage.sessionsSincePurchase)
              respond: {refundPreference: GRANT_FULL, consumptionPercentage: usage.sessionsSincePurchase * 4611686018427387904}
            - id: prorated
              when:
                - purchase.productType != AUTO_RENEWABLE
                - has(usage.consumptionPercentage)
              respond:
                refundPreference: GRANT_PRORATED
                consumptionPercentage: usage.consumptionPercentage
                deliveryStatus: DELIVERED
        """)
    let request = "event: {type: CONSUMPTION_REQUEST, consumptionRequestReason: UNINTENDED_PURCHASE, signedDate: 2026-12-15}"

    private func decide(_ facts: String) throws -> Decision {
        try BundleTestSupport.bundle(rules: rules, catalog: nil).decide(try BundleTestSupport.facts(request, facts))
    }

    @Test("a percentage above 100 is clamped to 100 percent, and GRANT_PRORATED then dropped")
    func clampedThenProratedDropped() throws {
        let decision = try decide("purchase: {productType: NON_CONSUMABLE}\nusage: {consumptionPercentage: 140}")
        #expect(decision.rule?.id == "prorated")
        #expect(decision.refund?.consumptionPercentage == 100_000)
        #expect(decision.refund?.refundPreference == nil)
        #expect(decision.refund?.deliveryStatus == "DELIVERED")
        #expect(decision.corrections.map(\.field) == ["consumptionPercentage", "refundPreference"])
        #expect(decision.corrections.map(\.from) == ["140000", "GRANT_PRORATED"])
        #expect(decision.corrections.map(\.to) == ["100000", nil])
        #expect(decision.corrections.allSatisfy { $0.rule.id == "prorated" })
    }

    @Test("a negative percentage is clamped to 0")
    func negativeClamped() throws {
        let decision = try decide("purchase: {productType: CONSUMABLE}\nusage: {consumptionPercentage: -5}")
        #expect(decision.refund?.consumptionPercentage == 0)
        #expect(decision.corrections.first?.from == "-5000")
        #expect(decision.corrections.first?.to == "0")
    }

    @Test("GRANT_PRORATED with 0 or 100 percent for a consumable is answered without a preference",
          arguments: [0, 100])
    func proratedWithoutUsablePercentage(_ percent: Int) throws {
        let decision = try decide("purchase: {productType: CONSUMABLE}\nusage: {consumptionPercentage: \(percent)}")
        #expect(decision.rule?.id == "prorated")
        #expect(decision.refund?.refundPreference == nil)
        #expect(decision.refund?.consumptionPercentage == Int64(percent) * 1000)
        let correction = try #require(decision.corrections.first)
        #expect(decision.corrections.count == 1)
        #expect(correction.field == "refundPreference")
        #expect(correction.from == "GRANT_PRORATED")
        #expect(correction.to == nil)
        #expect(correction.reason.contains("Apple decides without a preference"))
    }

    @Test("a valid computed answer is not corrected")
    func validNotCorrected() throws {
        let decision = try decide("purchase: {productType: CONSUMABLE}\nusage: {consumptionPercentage: 40}")
        #expect(decision.refund?.refundPreference == "GRANT_PRORATED")
        #expect(decision.refund?.consumptionPercentage == 40_000)
        #expect(decision.corrections.isEmpty)
        #expect(decision.shadowMatches.first?.corrections.isEmpty == true)
    }

    @Test("a shadow rule's answer is corrected too, recorded on the shadow match only")
    func shadowCorrected() throws {
        let decision = try decide("purchase: {productType: CONSUMABLE}\nusage: {consumptionPercentage: 250}")
        let shadow = try #require(decision.shadowMatches.first)
        #expect(shadow.rule.id == "shadow-full")
        #expect(shadow.refund?.consumptionPercentage == 100_000)
        #expect(shadow.corrections.map(\.to) == ["100000"])
        #expect(decision.corrections.allSatisfy { $0.rule.id == "prorated" })
        #expect(decision.renderText().contains("  corrected for Apple: consumptionPercentage 250000 → 100000 — "))
    }

    @Test("an evaluation error in respond: still skips the rule")
    func evaluationErrorSkips() throws {
        let decision = try decide("purchase: {productType: CONSUMABLE}\nusage: {sessionsSincePurchase: 4}")
        #expect(decision.rule == nil)
        #expect(decision.errors.map(\.rule.id) == ["overflowing"])
        #expect(decision.corrections.isEmpty)
        #expect(decision.trace.first { $0.rule?.id == "overflowing" }?.outcome == .error)
    }

    @Test("corrections are in the decision JSON and its explanation, one line each")
    func recorded() throws {
        let decision = try decide("purchase: {productType: CONSUMABLE}\nusage: {consumptionPercentage: 100}")
        let json = try JSONEncoder().encode(decision)
        #expect(try JSONDecoder().decode(Decision.self, from: json) == decision)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let corrections = try #require(object["corrections"] as? [[String: Any]])
        #expect(corrections.first?["field"] as? String == "refundPreference")
        #expect(corrections.first?["from"] as? String == "GRANT_PRORATED")
        #expect(corrections.first?["to"] == nil)
        #expect((corrections.first?["rule"] as? [String: Any])?["id"] as? String == "prorated")
        let lines = decision.renderText().split(separator: "\n").map(String.init)
        let line = try #require(lines.first { $0.hasPrefix("corrected for Apple: ") })
        #expect(line.hasPrefix("corrected for Apple: refundPreference GRANT_PRORATED → omitted — GRANT_PRORATED for a Consumable purchase"))
        #expect(line.hasSuffix(" (rule prorated)"))
        #expect(lines.firstIndex(of: line) == 2)
    }
}
