import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictService
import VerdictTestSupport

/// A seat reduction (`DECREASE_QUANTITY`) triggers the offers section when its `appliesTo` admits
/// it, like `AUTO_RENEW_DISABLED`: the decision's trigger is the subtype. An app's own seat screen
/// asks for the same decision with `POST /v1/offers/decide` and `"trigger": "DECREASE_QUANTITY"`.
@Suite struct SeatOfferTriggerTests {
    static let rule = "seat-reduction-annual"
    static let offer = "lumen-annual-20off"

    /// The shipped rules with a seat-reduction rule first, its section admitting the subtype and
    /// holding no one out, in a folder of their own (without the shipped rule tests, which know
    /// nothing of this rule).
    static func seatRules(in directory: URL) throws -> String {
        let rules = directory.appendingPathComponent("SeatRules")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: ServiceHarness.rulesDirectory), to: rules)
        for name in try FileManager.default.contentsOfDirectory(atPath: rules.path) where name.hasSuffix(".tests.yaml") {
            try FileManager.default.removeItem(at: rules.appendingPathComponent(name))
        }
        let file = rules.appendingPathComponent("retention.rules.yaml")
        var text = try String(contentsOf: file, encoding: .utf8)
        let appliesTo = "  appliesTo: event.type in [DID_CHANGE_RENEWAL_STATUS, EXPIRED]\n"
        text = text.replacingOccurrences(
            of: appliesTo, with: "  appliesTo: event.type in [DID_CHANGE_RENEWAL_STATUS, EXPIRED] || event.subtype == DECREASE_QUANTITY\n")
        text = text.replacingOccurrences(of: "holdout:\n  percent: 5\n", with: "holdout:\n  percent: 0\n")
        let anchor = "    - id: annual-full-price-payer\n"
        let seatRule = """
                - id: \(rule)
                  description: A team removing seats from an annual plan gets 20% off its next year.
                  when:
                    - event.subtype == DECREASE_QUANTITY
                    - subscription.productId == 'com.lumen.pro.annual'
                  offer: {id: \(offer), type: PROMOTIONAL}

            """
        #expect(text.contains(anchor) && text.contains("|| event.subtype == DECREASE_QUANTITY\n") && text.contains("  percent: 0\n"),
                "the shipped rules changed shape")
        text = text.replacingOccurrences(of: anchor, with: seatRule + anchor)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return rules.path
    }

    @Test(arguments: TestBackend.selected)
    func aSeatReductionIsDecidedWithItsSubtypeAsTrigger(_ backend: TestBackend) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-seat-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rules = try Self.seatRules(in: directory)
        try await ServiceHarness.with(backend, extraSettings: ["VERDICT_RULES_DIR": rules]) { harness in
            let (bought, otid) = try await harness.subscribeFullPriceAnnual()
            let reduced = try await harness.deliverSigned(
                .didChangeRenewalPref, .decreaseQuantity, transaction: try #require(bought.transaction),
                renewalInfo: bought.renewalInfo)
            #expect(reduced.view["state"]?.stringValue == "processed")
            let decision = try #require(try await harness.decisions(otid).first)
            #expect(decision["trigger"]?.stringValue == "DECREASE_QUANTITY")
            #expect(decision["notificationUUID"]?.stringValue == reduced.notificationUUID)
            #expect(decision["ruleId"]?.stringValue == Self.rule)
            #expect(decision[path: "offer.id"]?.stringValue == Self.offer)
            #expect(decision[path: "record.facts.event.subtype"]?.stringValue == "DECREASE_QUANTITY")

            // The app's own seat screen: decided now, as a seat reduction.
            let (_, other) = try await harness.subscribeFullPriceAnnual()
            let (status, body) = try await harness.request(.POST, "/v1/offers/decide", body: Data(
                #"{"originalTransactionId":"\#(other)","trigger":"DECREASE_QUANTITY"}"#.utf8))
            #expect(status == 200)
            #expect(body.jsonObject[path: "offer.offerId"]?.stringValue == Self.offer)
            #expect(body.jsonObject["heldOut"]?.boolValue == false)
            #expect(body.jsonObject["ruleId"]?.stringValue == Self.rule)
            let onDemand = try #require(try await harness.decisions(other).first)
            #expect(onDemand["trigger"]?.stringValue == "DECREASE_QUANTITY")
            #expect(onDemand[path: "record.facts.event.type"]?.stringValue == "DID_CHANGE_RENEWAL_PREF")
        }
    }
}
