import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Monthly plans with a 12-month commitment: `commitmentInfo` on transactions and renewal info,
/// renewals paying the next billing period, auto-renew turned off mid-commitment.
@Suite struct CommitmentTests {
    static func monthlyPlan(_ harness: SimulatorHarness) async throws -> ScenarioResult {
        try await harness.store.subscribe(SubscribeRequest(
            productId: "com.example.annual.monthly", price: 4990, billingPlanType: .monthly))
    }

    /// `date` moved by `months` calendar months in UTC.
    static func months(_ months: Int, after date: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(byAdding: .month, value: months, to: date)!
    }

    @Test func purchaseStartsACommitment() async throws {
        try await withSimulator { harness in
            let verified = try await MultiSeat.verified(harness, try await Self.monthlyPlan(harness))
            let transaction = try #require(verified.transaction)
            let start = try #require(transaction.purchaseDate)
            #expect(transaction.billingPlanType == .monthly)
            #expect(transaction.price == 4990)
            #expect(transaction.expiresDate == Self.months(1, after: start))
            #expect(transaction.commitmentInfo == TransactionCommitmentInfo(
                billingPeriodNumber: 1, commitmentExpiresDate: Self.months(12, after: start),
                commitmentPrice: 59_880, totalBillingPeriods: 12))
            let renewal = try #require(verified.renewalInfo)
            #expect(renewal.renewalBillingPlanType == .monthly)
            #expect(renewal.renewalPrice == 4990)
            #expect(renewal.commitmentInfo == RenewalCommitmentInfo(
                commitmentAutoRenewProductId: "com.example.annual.monthly", commitmentAutoRenewStatus: .on,
                commitmentRenewalBillingPlanType: .monthly, commitmentRenewalDate: Self.months(12, after: start),
                commitmentRenewalPrice: 59_880))
        }
    }

    @Test func renewalsPayTheNextBillingPeriodAndAutoRenewOffKeepsTheCommitment() async throws {
        try await withSimulator { harness in
            let purchase = try await Self.monthlyPlan(harness)
            let original = try #require(purchase.originalTransactionId)
            let end = try #require(purchase.transaction?.commitmentInfo?.commitmentExpiresDate)
            for number in 2...3 {
                let renewed = try await MultiSeat.verified(harness, try await harness.store.renew(originalTransactionId: original))
                #expect(renewed.payload.notificationType == .didRenew)
                #expect(renewed.transaction?.commitmentInfo?.billingPeriodNumber == Int32(number))
                #expect(renewed.transaction?.commitmentInfo?.commitmentExpiresDate == end)
                #expect(renewed.transaction?.commitmentInfo?.totalBillingPeriods == 12)
            }

            let off = try await MultiSeat.verified(harness, try await harness.store.setAutoRenew(
                originalTransactionId: original, enabled: false))
            #expect(off.payload.notificationType == .didChangeRenewalStatus)
            #expect(off.payload.subtype == .autoRenewDisabled)
            #expect(off.payload.data?.status == .active)
            #expect(off.transaction?.commitmentInfo?.billingPeriodNumber == 3)
            #expect(off.renewalInfo?.autoRenewStatus == .off)
            #expect(off.renewalInfo?.commitmentInfo?.commitmentAutoRenewStatus == .off)
            #expect(off.renewalInfo?.commitmentInfo?.commitmentRenewalDate == end)
            #expect(off.renewalInfo?.renewalBillingPlanType == .monthly)

            // The commitment still runs to its last period, then ends.
            for _ in 4...12 { _ = try await harness.store.renew(originalTransactionId: original) }
            let last = try #require(await harness.store.latestTransaction(originalTransactionId: original))
            #expect(last.commitmentInfo?.billingPeriodNumber == 12)
            #expect(last.expiresDate == end)
            await #expect(throws: SimulatorError.self) { try await harness.store.renew(originalTransactionId: original) }
        }
    }

    @Test func renewalAfterTheLastPeriodStartsANewCommitment() async throws {
        try await withSimulator { harness in
            let original = try #require(try await Self.monthlyPlan(harness).originalTransactionId)
            for _ in 2...12 { _ = try await harness.store.renew(originalTransactionId: original) }
            let next = try await harness.store.renew(originalTransactionId: original)
            let start = try #require(next.transaction?.purchaseDate)
            #expect(next.transaction?.commitmentInfo?.billingPeriodNumber == 1)
            #expect(next.transaction?.commitmentInfo?.commitmentExpiresDate == Self.months(12, after: start))
        }
    }

    @Test func multiseatMonthlyPlanPricesTheCommitmentByItsSeats() async throws {
        try await withSimulator { harness in
            let purchase = try await harness.store.subscribe(SubscribeRequest(
                productId: "com.example.team", seats: 8, seatPricing: MultiSeat.pricing, billingPlanType: .monthly))
            #expect(purchase.transaction?.commitmentInfo?.commitmentPrice == 887_040)
            #expect(purchase.renewalInfo?.commitmentInfo?.commitmentRenewalPrice == 887_040)
        }
    }

    @Test func planRequestsAreChecked() async throws {
        try await withSimulator { harness in
            await #expect(throws: SimulatorError.invalidRequest("only the MONTHLY billing plan is simulated")) {
                try await harness.store.subscribe(SubscribeRequest(productId: "p", billingPlanType: .billedUpfront))
            }
            await #expect(throws: SimulatorError.self) {
                try await harness.store.subscribe(SubscribeRequest(productId: "p", period: .oneYear, billingPlanType: .monthly))
            }
            await #expect(throws: SimulatorError.self) {
                try await harness.store.subscribe(SubscribeRequest(productId: "p", commitmentBillingPeriods: 6))
            }
            let ordinary = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            #expect(ordinary.transaction?.billingPlanType == nil)
            #expect(ordinary.transaction?.commitmentInfo == nil)
            #expect(ordinary.renewalInfo?.commitmentInfo == nil)
            #expect(ordinary.renewalInfo?.renewalBillingPlanType == nil)
        }
    }

    @Test func controlAPISubscribesToAMonthlyPlan() async throws {
        try await withSimulator { harness in
            let body = #"{"productId":"com.example.annual.monthly","price":4990,"billingPlanType":"MONTHLY","commitmentBillingPeriods":6}"#
            let response = try await harness.raw("POST", "/simulator/scenarios/subscribe", body: Data(body.utf8), bearer: nil)
            let result = try AppStoreJSON.decoder().decode(ScenarioResult.self, from: response.body)
            #expect(result.transaction?.commitmentInfo?.totalBillingPeriods == 6)
            #expect(result.transaction?.commitmentInfo?.commitmentPrice == 29_940)
        }
    }
}
