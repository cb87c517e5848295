import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictTestSupport

/// A monthly plan with a 12-month commitment: a subscriber who turns auto-renew off in month 3
/// still pays 9 more months, so the shipped veto `no-offers-mid-commitment` makes no offer, and the
/// decision's facts carry the commitment (period 3 of 12, when it ends, no renewal after it). Once
/// the twelfth month is paid and the subscription expires, the veto no longer holds and the usual
/// rules decide (the win-back offer for a lapsed payer).
@Suite struct CommitmentOfferTests {
    @Test(arguments: TestBackend.selected)
    func noOfferMidCommitmentAndTheUsualRulesAfterIt(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let store = harness.store
            let bought = try await TeamScenario.step(harness) {
                try await store.subscribe(SubscribeRequest(
                    productId: TeamScenario.monthly, price: 7_990, currency: "USD", billingPlanType: .monthly,
                    commitmentBillingPeriods: 12))
            }
            let otid = try #require(bought.originalTransactionId)
            let endsAt = try #require(bought.transaction?.commitmentInfo?.commitmentExpiresDate)
            var month = bought
            for _ in 2...3 { month = try await TeamScenario.step(harness) { try await store.renew(originalTransactionId: otid) } }
            #expect(month.transaction?.commitmentInfo?.billingPeriodNumber == 3)

            let midway = try await TeamScenario.turnAutoRenewOff(harness, otid)
            #expect(midway["trigger"]?.stringValue == "AUTO_RENEW_DISABLED")
            #expect(midway.vetoedBy == "no-offers-mid-commitment")
            #expect(midway["offer"] == nil && midway["ruleId"] == nil)
            #expect(midway.seen("subscription.billingPlan")?.stringValue == "MONTHLY")
            #expect(midway.seen("subscription.commitment") == .object([
                "period": .integer(3), "periods": .integer(12),
                "endsAt": .integer(endsAt.appStoreMilliseconds), "autoRenew": .bool(false),
            ]))

            // Auto-renew off does not end a commitment: months 4 to 12 are paid, then it expires.
            for _ in 4...12 { month = try await TeamScenario.step(harness) { try await store.renew(originalTransactionId: otid) } }
            #expect(month.transaction?.commitmentInfo?.billingPeriodNumber == 12)
            let expired = try await TeamScenario.step(harness) {
                try await store.expire(originalTransactionId: otid, eligibleWinBackOfferIds: ["lumen-winback-monthly-50off"])
            }
            let after = try await TeamScenario.decision(harness, otid, on: expired)
            #expect(after.vetoedBy == nil)
            #expect(after.seen("subscription.commitment.period") == .integer(12))
            #expect(after["ruleId"]?.stringValue == "winback-lapsed-payers")
            #expect(after[path: "offer.id"]?.stringValue == "lumen-winback-monthly-50off")
        }
    }
}
