import AppStoreServer
import Foundation
import Testing

@Suite("Renewal info model")
struct RenewalInfoModelTests {
    @Test func decodesEveryField() throws {
        let info = try ModelFixture.decode(JWSRenewalInfoDecodedPayload.self, fixture: "renewalInfo")
        #expect(info.expirationIntent == .customerCancelled)
        #expect(info.originalTransactionId == "12345")
        #expect(info.autoRenewProductId == "com.example.product.2")
        #expect(info.productId == "com.example.product")
        #expect(info.autoRenewStatus == .on)
        #expect(info.isInBillingRetryPeriod == true)
        #expect(info.priceIncreaseStatus == .customerHasNotResponded)
        #expect(info.gracePeriodExpiresDate == ModelFixture.date(1_698_148_900_000))
        #expect(info.offerType == .promotionalOffer)
        #expect(info.offerIdentifier == "abc.123")
        #expect(info.signedDate == ModelFixture.date(1_698_148_800_000))
        #expect(info.environment == .localTesting)
        #expect(info.recentSubscriptionStartDate == ModelFixture.date(1_698_148_800_000))
        #expect(info.renewalDate == ModelFixture.date(1_698_148_850_000))
        #expect(info.currency == "USD")
        #expect(info.renewalPrice == 9990)
        #expect(info.offerDiscountType == .payAsYouGo)
        #expect(info.appAccountToken == UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"))
        #expect(info.appTransactionId == "71134")
        #expect(info.offerPeriod == "P1Y")
        #expect(info.renewalBillingPlanType == .billedUpfront)
        #expect(info.commitmentInfo == RenewalCommitmentInfo(
            commitmentAutoRenewProductId: "com.example.commitment",
            commitmentAutoRenewStatus: .off,
            commitmentRenewalBillingPlanType: .monthly,
            commitmentRenewalDate: ModelFixture.date(1_729_684_900_000),
            commitmentRenewalPrice: 119_880
        ))
    }

    @Test func keepsWinBackOfferOrder() throws {
        let info = try ModelFixture.decode(JWSRenewalInfoDecodedPayload.self, fixture: "renewalInfo")
        #expect(info.eligibleWinBackOfferIds == ["zeta-offer", "alpha-offer", "mid-offer"])
        let reencoded = try ModelFixture.encode(info)
        #expect(reencoded.contains(#""eligibleWinBackOfferIds":["zeta-offer","alpha-offer","mid-offer"]"#))
    }

    @Test func roundTripsThroughTheEncoder() throws {
        let info = try ModelFixture.decode(JWSRenewalInfoDecodedPayload.self, fixture: "renewalInfo")
        #expect(try ModelFixture.decode(JWSRenewalInfoDecodedPayload.self, json: ModelFixture.encode(info)) == info)
    }
}
