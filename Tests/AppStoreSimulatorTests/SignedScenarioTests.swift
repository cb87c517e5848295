import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Scenario operations produce the notifications Apple sends, signed by the simulator's PKI and
/// verifiable by Verdict's `SignedDataVerifier` trusting the simulator's root.
@Suite struct SignedScenarioTests {
    static func verifier(_ harness: SimulatorHarness, environment: AppStoreEnvironment = .sandbox) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            rootCertificates: [harness.store.pki.rootCertificateDER], bundleId: harness.store.configuration.bundleId,
            appAppleId: harness.store.configuration.appAppleId, environments: [environment])
    }

    @Test func subscribeWithFreeTrialVerifiesAndCarriesTheOffer() async throws {
        try await withSimulator { harness in
            let token = UUID()
            let result = try await harness.store.subscribe(SubscribeRequest(
                productId: "com.example.monthly", subscriptionGroupIdentifier: "21000001", price: 12990,
                currency: "EUR", storefront: "DEU", offer: .freeTrial(.oneWeek, identifier: "trial-1w"),
                appAccountToken: token))
            let verified = try await Self.verifier(harness).verifyNotification(result.notification.signedPayload)
            #expect(verified.payload.notificationType == .subscribed)
            #expect(verified.payload.subtype == .initialBuy)
            #expect(verified.payload.version == "2.0")
            #expect(verified.payload.signedDate == harness.store.now)
            let uuid = try #require(verified.payload.notificationUUID)
            #expect(uuid == uuid.lowercased())
            #expect(UUID(uuidString: uuid) != nil)
            #expect(verified.payload.data?.status == .active)
            #expect(verified.payload.data?.bundleVersion == "1")
            #expect(verified.payload.data?.appAppleId == 1_234_567_890)
            let transaction = try #require(verified.transaction)
            #expect(transaction.offerType == .introductoryOffer)
            #expect(transaction.offerDiscountType == .freeTrial)
            #expect(transaction.offerIdentifier == "trial-1w")
            #expect(transaction.offerPeriod == "P1W")
            #expect(transaction.price == 0)
            #expect(transaction.currency == "EUR")
            #expect(transaction.storefront == "DEU")
            #expect(transaction.appAccountToken == token)
            #expect(transaction.type == .autoRenewable)
            #expect(transaction.transactionReason == .purchase)
            #expect(transaction.expiresDate == harness.store.now.addingTimeInterval(7 * 86400))
            let renewal = try #require(verified.renewalInfo)
            #expect(renewal.autoRenewStatus == .on)
            #expect(renewal.renewalPrice == 12990)
            #expect(renewal.offerType == nil)
            #expect(renewal.renewalDate == transaction.expiresDate)
        }
    }

    @Test func renewalAfterTrialChargesTheRegularPrice() async throws {
        try await withSimulator { harness in
            let first = try await harness.store.subscribe(SubscribeRequest(
                productId: "com.example.monthly", price: 4990, offer: .freeTrial(.oneWeek)))
            harness.store.clock.advance(by: 7 * 86400)
            let renewal = try await harness.store.renew(originalTransactionId: try #require(first.originalTransactionId))
            let verified = try await Self.verifier(harness).verifyNotification(renewal.notification.signedPayload)
            #expect(verified.payload.notificationType == .didRenew)
            #expect(verified.transaction?.price == 4990)
            #expect(verified.transaction?.offerType == nil)
            #expect(verified.transaction?.transactionReason == .renewal)
            #expect(verified.transaction?.originalTransactionId == first.originalTransactionId)
            #expect(verified.transaction?.purchaseDate == first.transaction?.expiresDate)
        }
    }

    @Test func expiryListsWinBackOffersAndResubscribeRedeemsOne() async throws {
        try await withSimulator { harness in
            let first = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            let original = try #require(first.originalTransactionId)
            let off = try await harness.store.setAutoRenew(originalTransactionId: original, enabled: false)
            #expect(off.notification.subtype == .autoRenewDisabled)
            #expect(off.renewalInfo?.autoRenewStatus == .off)
            harness.store.clock.advance(by: 31 * 86400)
            let expired = try await harness.store.expire(
                originalTransactionId: original, subtype: .voluntary, eligibleWinBackOfferIds: ["wb-best", "wb-other"])
            let verified = try await Self.verifier(harness).verifyNotification(expired.notification.signedPayload)
            #expect(verified.payload.notificationType == .expired)
            #expect(verified.payload.subtype == .voluntary)
            #expect(verified.payload.data?.status == .expired)
            #expect(verified.renewalInfo?.eligibleWinBackOfferIds == ["wb-best", "wb-other"])
            #expect(verified.renewalInfo?.expirationIntent == .customerCancelled)

            let back = try await harness.store.resubscribe(originalTransactionId: original, offer: SimulatedOffer(
                type: .winBackOffer, discountType: .payUpFront, identifier: "wb-best", price: 1990, period: SubscriptionPeriod(3, .month)))
            let resubscribed = try await Self.verifier(harness).verifyNotification(back.notification.signedPayload)
            #expect(resubscribed.payload.notificationType == .subscribed)
            #expect(resubscribed.payload.subtype == .resubscribe)
            #expect(resubscribed.transaction?.offerType == .winBackOffer)
            #expect(resubscribed.transaction?.offerDiscountType == .payUpFront)
            #expect(resubscribed.transaction?.price == 1990)
            #expect(resubscribed.transaction?.offerPeriod == "P3M")
            #expect(resubscribed.renewalInfo?.eligibleWinBackOfferIds == nil)
        }
    }

    @Test func refundRequestGrantAndReversalCarryTheTransaction() async throws {
        try await withSimulator(environment: .production) { harness in
            let verifier = try Self.verifier(harness, environment: .production)
            let id = try await harness.buyConsumable(price: 990)
            let request = try await harness.store.requestRefund(transactionId: id, reason: .unsatisfiedWithPurchase)
            let consumption = try await verifier.verifyNotification(request.notification.signedPayload)
            #expect(consumption.payload.notificationType == .consumptionRequest)
            #expect(consumption.payload.data?.consumptionRequestReason == .unsatisfiedWithPurchase)
            #expect(consumption.payload.data?.environment == .production)
            #expect(consumption.transaction?.transactionId == id)
            #expect(consumption.transaction?.type == .consumable)

            harness.store.clock.advance(by: 3600)
            let refund = try await harness.store.grantRefund(
                transactionId: id, reason: .refundedDueToIssue, type: .refundProrated, percentage: 40000)
            let refunded = try await verifier.verifyNotification(refund.notification.signedPayload)
            #expect(refunded.payload.notificationType == .refund)
            #expect(refunded.transaction?.revocationDate == harness.store.now)
            #expect(refunded.transaction?.revocationReason == .refundedDueToIssue)
            #expect(refunded.transaction?.revocationType == .refundProrated)
            #expect(refunded.transaction?.revocationPercentage == 40000)

            let reversal = try await harness.store.reverseRefund(transactionId: id)
            let reversed = try await verifier.verifyNotification(reversal.notification.signedPayload)
            #expect(reversed.payload.notificationType == .refundReversed)
            #expect(reversed.transaction?.revocationDate == nil)
            #expect(await harness.store.refundRequest(transactionId: id)?.outcome == .reversed)
        }
    }

    @Test func declinedRefundIsRefundDeclined() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            _ = try await harness.store.requestRefund(transactionId: id)
            let declined = try await harness.store.declineRefund(transactionId: id)
            let verified = try await Self.verifier(harness).verifyNotification(declined.notification.signedPayload)
            #expect(verified.payload.notificationType == .refundDeclined)
            #expect(verified.transaction?.revocationDate == nil)
        }
    }

    @Test func subscriptionStatusesFromTheAPIVerify() async throws {
        try await withSimulator { harness in
            let first = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            let customer = try #require(first.transaction?.appTransactionId)
            let other = try await harness.store.subscribe(SubscribeRequest(
                productId: "com.example.extra", subscriptionGroupIdentifier: "group.extra", appTransactionId: customer))
            _ = try await harness.store.expire(originalTransactionId: try #require(other.originalTransactionId))
            let all = try await harness.client.getAllSubscriptionStatuses(transactionId: customer)
            #expect(all.data?.count == 2)
            let expiredOnly = try await harness.client.getAllSubscriptionStatuses(transactionId: customer, status: [.expired])
            let item = try #require(expiredOnly.data?.first?.lastTransactions?.first)
            #expect(expiredOnly.data?.count == 1)
            #expect(item.status == .expired)
            #expect(item.originalTransactionId == other.originalTransactionId)
            let verifier = try Self.verifier(harness)
            let transaction = try await verifier.verifyTransaction(try #require(item.signedTransactionInfo))
            #expect(transaction.productId == "com.example.extra")
            let renewal = try await verifier.verifyRenewalInfo(try #require(item.signedRenewalInfo))
            #expect(renewal.autoRenewStatus == .off)
        }
    }

    @Test func testNotificationVerifies() async throws {
        try await withSimulator { harness in
            let sent = try await harness.store.sendTestNotification()
            let verified = try await Self.verifier(harness).verifyNotification(sent.notification.signedPayload)
            #expect(verified.payload.notificationType == .test)
            #expect(verified.payload.data?.bundleId == "com.example.verdict")
            #expect(verified.transaction == nil)
        }
    }
}
