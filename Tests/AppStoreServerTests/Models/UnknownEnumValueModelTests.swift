import AppStoreServer
import Foundation
import Testing

/// Values Apple adds later must decode, report `isKnown == false` and re-encode unchanged.
@Suite("Unknown enumeration values")
struct UnknownEnumValueModelTests {
    /// A compact, key-sorted JSON document that must re-encode byte for byte.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let json: String
        var testDescription: String { name }
    }

    @Test func unknownEnvironmentInTransactionHistory() throws {
        let json = #"{"appAppleId":1,"bundleId":"com.example","environment":"LocalTestingxxx","hasMore":false,"revision":"r","signedTransactions":[]}"#
        let history = try ModelFixture.decode(HistoryResponse.self, json: json)
        let environment = try #require(history.environment)
        #expect(environment.rawValue == "LocalTestingxxx")
        #expect(environment.isKnown == false)
        #expect(environment != .localTesting)
        #expect(try ModelFixture.encode(history) == json)
    }

    @Test func unknownNotificationTypeAndSubtype() throws {
        let json = #"{"data":{"bundleId":"com.example","consumptionRequestReason":"NEW_REASON","environment":"Sandbox","status":6},"notificationType":"BRAND_NEW_TYPE","notificationUUID":"u","signedDate":1698148900000,"subtype":"BRAND_NEW_SUBTYPE","version":"2.0"}"#
        let payload = try ModelFixture.decode(ResponseBodyV2DecodedPayload.self, json: json)
        #expect(payload.notificationType?.rawValue == "BRAND_NEW_TYPE")
        #expect(payload.notificationType?.isKnown == false)
        #expect(payload.subtype?.isKnown == false)
        #expect(payload.data?.status == SubscriptionStatus(rawValue: 6))
        #expect(payload.data?.status?.isKnown == false)
        #expect(payload.data?.consumptionRequestReason?.isKnown == false)
        #expect(payload.data?.environment?.isKnown == true)
        #expect(try ModelFixture.encode(payload) == json)
    }

    @Test func unknownOfferTypeAndProductType() throws {
        let json = #"{"billingPlanType":"WEEKLY","environment":"Production","inAppOwnershipType":"BORROWED","offerDiscountType":"HALF_OFF","offerType":9,"revocationReason":7,"revocationType":"REFUND_PARTIAL","transactionId":"1","transactionReason":"GIFT","type":"Lease"}"#
        let transaction = try ModelFixture.decode(JWSTransactionDecodedPayload.self, json: json)
        let offerType = try #require(transaction.offerType)
        #expect(offerType.rawValue == 9)
        #expect(offerType.isKnown == false)
        #expect(transaction.type?.isKnown == false)
        #expect(transaction.inAppOwnershipType?.isKnown == false)
        #expect(transaction.offerDiscountType?.isKnown == false)
        #expect(transaction.revocationReason?.isKnown == false)
        #expect(transaction.revocationType?.isKnown == false)
        #expect(transaction.transactionReason?.isKnown == false)
        #expect(transaction.billingPlanType?.isKnown == false)
        #expect(try ModelFixture.encode(transaction) == json)
    }

    @Test func unknownRenewalInfoValues() throws {
        let json = #"{"autoRenewStatus":2,"expirationIntent":99,"offerType":5,"priceIncreaseStatus":3,"renewalBillingPlanType":"YEARLY"}"#
        let info = try ModelFixture.decode(JWSRenewalInfoDecodedPayload.self, json: json)
        #expect(info.autoRenewStatus?.isKnown == false)
        #expect(info.expirationIntent?.rawValue == 99)
        #expect(info.expirationIntent?.isKnown == false)
        #expect(info.priceIncreaseStatus?.isKnown == false)
        #expect(info.renewalBillingPlanType?.isKnown == false)
        #expect(try ModelFixture.encode(info) == json)
    }

    @Test func unknownMultiSeatValues() throws {
        let json = #"{"additionalTransactionReason":"SEAT_REMOVAL","inAppOwnershipType":"LOANED","multiSeatInfo":{"invitationManagement":"SCHOOL","priceTiers":[]},"revocationType":"GROUP_REVOKE"}"#
        let transaction = try ModelFixture.decode(JWSTransactionDecodedPayload.self, json: json)
        let reason = try #require(transaction.resolvedAdditionalTransactionReason)
        #expect(reason.rawValue == "SEAT_REMOVAL")
        #expect(reason.isKnown == false)
        let invitations = try #require(transaction.multiSeatInfo?.invitationManagement)
        #expect(invitations.rawValue == "SCHOOL")
        #expect(invitations.isKnown == false)
        #expect(transaction.inAppOwnershipType?.isKnown == false)
        #expect(transaction.revocationType?.isKnown == false)
        #expect(try ModelFixture.encode(transaction) == json)
    }

    @Test(arguments: [
        Case(name: "app transaction platform", json: #"{"originalPlatform":"watchOS","receiptType":"Simulator"}"#),
        Case(name: "send attempt result", json: #"{"attemptDate":1698148900000,"sendAttemptResult":"DNS_FAILURE"}"#),
        Case(name: "order lookup status", json: #"{"signedTransactions":[],"status":2}"#),
        Case(name: "consumption request", json: #"{"customerConsented":true,"deliveryStatus":"UNDELIVERED_LATER","refundPreference":"GRANT_HALF","sampleContentProvided":true}"#),
    ])
    func otherModelsKeepUnknownValues(_ testCase: Case) throws {
        let reencoded: String
        switch testCase.name {
        case "app transaction platform":
            let value = try ModelFixture.decode(AppTransaction.self, json: testCase.json)
            #expect(value.originalPlatform?.isKnown == false && value.receiptType?.isKnown == false)
            reencoded = try ModelFixture.encode(value)
        case "send attempt result":
            let value = try ModelFixture.decode(SendAttemptItem.self, json: testCase.json)
            #expect(value.sendAttemptResult?.isKnown == false)
            reencoded = try ModelFixture.encode(value)
        case "order lookup status":
            let value = try ModelFixture.decode(OrderLookupResponse.self, json: testCase.json)
            #expect(value.status?.isKnown == false)
            reencoded = try ModelFixture.encode(value)
        default:
            let value = try ModelFixture.decode(ConsumptionRequest.self, json: testCase.json)
            #expect(value.deliveryStatus.isKnown == false && value.refundPreference?.isKnown == false)
            reencoded = try ModelFixture.encode(value)
        }
        #expect(reencoded == testCase.json)
    }

    @Test func unknownValuesAreEqualByRawValue() {
        #expect(NotificationTypeV2(rawValue: "BRAND_NEW_TYPE") == NotificationTypeV2(rawValue: "BRAND_NEW_TYPE"))
        #expect(NotificationTypeV2(rawValue: "BRAND_NEW_TYPE").description == "BRAND_NEW_TYPE")
        #expect(OfferType(rawValue: 9).description == "9")
    }
}
