import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictService
import VerdictTestSupport

/// What customers did after the cancel page, through the simulator: each of five full-price annual
/// subscribers opens it (Verdict answers with the shipped rules' offer), then does something
/// else — redeems that offer, takes a retention offer Apple chose (`offerType` 5), switches plan,
/// renews, or cancels. Each realtime decision shows its action (Apple's `offerType` kept as
/// sent), and `GET /v1/rules/stats` counts them for the rule.
@Suite struct RetentionOutcomeTests {
    /// One customer's cancel-page decision as the API lists it.
    static func realtimeDecision(_ harness: ServiceHarness, _ otid: String) async throws -> [String: JSONValue] {
        let (_, list) = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)")
        return try #require(list.jsonObject["decisions"]?.arrayValue?.compactMap(\.objectValue).first {
            $0["trigger"]?.stringValue == "REALTIME_REQUEST"
        })
    }

    @Test(arguments: TestBackend.selected)
    func eachRealtimeDecisionShowsWhatTheCustomerDidNext(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: RetentionRealtimeTests.settings) { harness in
            try await RetentionRealtimeTests.approve(["annual-stay-40off"], in: harness)
            let store = harness.store
            let offered = SimulatedOffer(type: .promotionalOffer, discountType: .payUpFront, identifier: "lumen-annual-40off",
                                         price: 35_990, period: .oneYear)
            let appleOffer = SimulatedOffer(type: .retentionOffer, discountType: .payUpFront, identifier: "asc-retention-30off",
                                            price: 41_990, period: .oneYear)
            let next: [(expected: String, act: @Sendable (String) async throws -> ScenarioResult)] = [
                ("redeemed", { try await store.redeemOffer(originalTransactionId: $0, offer: offered) }),
                ("apple_offer", { try await store.redeemOffer(originalTransactionId: $0, offer: appleOffer) }),
                ("switched", { try await store.changeProduct(originalTransactionId: $0, productId: "com.lumen.pro.monthly", upgrade: false) }),
                ("renewed", { try await store.renew(originalTransactionId: $0) }),
                ("cancelled", { try await store.setAutoRenew(originalTransactionId: $0, enabled: false) }),
            ]
            var customers: [(otid: String, expected: String)] = []
            for (expected, act) in next {
                let (_, otid) = try await harness.subscribeFullPriceAnnual()
                let (_, _, status, _) = try await RetentionRealtimeTests.ask(harness, otid: otid)
                #expect(status == 200)
                let decision = try await Self.realtimeDecision(harness, otid)
                #expect(decision["ruleId"]?.stringValue == "cancel-page-annual-full-price")
                #expect(decision["action"] == nil, "nothing is known before the customer acts")
                _ = try await harness.settled(act(otid))
                // A customer in the 5 % holdout was offered nothing: their redemption is another offer.
                let heldOut = decision["heldOut"]?.boolValue == true
                customers.append((otid, expected == "redeemed" && heldOut ? "other_offer" : expected))
            }

            var actions: [String: Int] = [:]
            for (otid, expected) in customers {
                let decision = try await Self.realtimeDecision(harness, otid)
                let action = decision["action"]?.stringValue
                #expect(action == expected, "\(otid)")
                actions[action ?? "none", default: 0] += 1
                #expect(decision["outcome"]?.stringValue == (expected == "cancelled" ? nil : expected == "redeemed" ? "redeemed" : "retained"))
                #expect(decision["outcomeAt"]?.integerValue != nil)
                if expected == "apple_offer" { #expect(decision["actionOfferType"]?.integerValue == 5) }
            }

            let (_, stats) = try await harness.request(.GET, "/v1/rules/stats")
            let rule = try #require(stats.jsonObject["rules"]?.arrayValue?.compactMap(\.objectValue).first {
                $0["ruleId"]?.stringValue == "cancel-page-annual-full-price"
            })
            #expect(rule["decisions"]?.integerValue == 5)
            #expect(rule["redeemed"]?.integerValue == Int64(actions["redeemed", default: 0]))
            #expect(rule["appleOffer"]?.integerValue == 1)
            #expect(rule["switched"]?.integerValue == 1)
            #expect(rule["renewed"]?.integerValue == 1)
            #expect(rule["cancelled"]?.integerValue == 1)
        }
    }
}
