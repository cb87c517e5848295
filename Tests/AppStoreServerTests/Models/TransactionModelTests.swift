import AppStoreServer
import Foundation
import Testing

@Suite("Transaction model")
struct TransactionModelTests {
    @Test func decodesEveryField() throws {
        let transaction = try ModelFixture.decode(JWSTransactionDecodedPayload.self, fixture: "transaction")
        #expect(transaction.originalTransactionId == "12345")
        #expect(transaction.transactionId == "23456")
        #expect(transaction.webOrderLineItemId == "34343")
        #expect(transaction.bundleId == "com.example")
        #expect(transaction.productId == "com.example.product")
        #expect(transaction.subscriptionGroupIdentifier == "55555")
        #expect(transaction.purchaseDate == ModelFixture.date(1_698_148_900_000))
        #expect(transaction.expiresDate == ModelFixture.date(1_698_149_000_000))
        #expect(transaction.quantity == 1)
        #expect(transaction.type == .autoRenewable)
        #expect(transaction.appAccountToken == UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138"))
        #expect(transaction.inAppOwnershipType == .purchased)
        #expect(transaction.signedDate == ModelFixture.date(1_698_148_900_000))
        #expect(transaction.revocationReason == .refundedDueToIssue)
        #expect(transaction.revocationDate == ModelFixture.date(1_698_148_950_000))
        #expect(transaction.isUpgraded == true)
        #expect(transaction.offerType == .introductoryOffer)
        #expect(transaction.offerIdentifier == "abc.123")
        #expect(transaction.environment == .localTesting)
        #expect(transaction.storefront == "USA")
        #expect(transaction.storefrontId == "143441")
        #expect(transaction.transactionReason == .purchase)
        #expect(transaction.currency == "USD")
        #expect(transaction.offerDiscountType == .payAsYouGo)
        #expect(transaction.appTransactionId == "71134")
        #expect(transaction.offerPeriod == "P1Y")
        #expect(transaction.revocationType == .refundProrated)
        #expect(transaction.revocationPercentage == 50000)
        #expect(transaction.billingPlanType == .monthly)
        #expect(transaction.commitmentInfo == TransactionCommitmentInfo(
            billingPeriodNumber: 3,
            commitmentExpiresDate: ModelFixture.date(1_729_684_900_000),
            commitmentPrice: 119_880,
            totalBillingPeriods: 12
        ))
    }

    @Test func keepsPricesBeyondInt32() throws {
        let transaction = try ModelFixture.decode(JWSTransactionDecodedPayload.self, fixture: "transaction")
        let price = try #require(transaction.price)
        #expect(price == 9_999_999_999_990)
        #expect(price > Int64(Int32.max))
        #expect(try ModelFixture.encode(transaction).contains(#""price":9999999999990"#))
    }

    @Test func keepsFractionalMillisecondDates() throws {
        let transaction = try ModelFixture.decode(JWSTransactionDecodedPayload.self, fixture: "transaction")
        let date = try #require(transaction.originalPurchaseDate)
        #expect(abs(date.timeIntervalSince1970 * 1000 - 1_698_148_800_000.25) < 0.01)
        #expect(date != ModelFixture.date(1_698_148_800_000))
        #expect(date.appStoreMilliseconds == 1_698_148_800_000)
    }

    @Test func encodesDatesAsIntegerMillisecondsAndOmitsNil() throws {
        let transaction = JWSTransactionDecodedPayload(
            transactionId: "1", purchaseDate: ModelFixture.date(1_698_148_900_123), type: .consumable, price: 990
        )
        #expect(try ModelFixture.encode(transaction)
            == #"{"price":990,"purchaseDate":1698148900123,"transactionId":"1","type":"Consumable"}"#)
    }

    @Test func roundTripsThroughTheEncoder() throws {
        let original = try ModelFixture.decode(JWSTransactionDecodedPayload.self, fixture: "transaction")
        var integral = original
        integral.originalPurchaseDate = ModelFixture.date(1_698_148_800_000)
        let again = try ModelFixture.decode(JWSTransactionDecodedPayload.self, json: ModelFixture.encode(integral))
        #expect(again == integral)
    }

    @Test func encodesAppAccountTokenAsUppercaseUUID() throws {
        let transaction = JWSTransactionDecodedPayload(appAccountToken: UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"))
        #expect(try ModelFixture.encode(transaction) == #"{"appAccountToken":"7E3FB20B-4CDB-47CC-936D-99D65F608138"}"#)
    }
}
