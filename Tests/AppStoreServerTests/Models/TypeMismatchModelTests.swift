import AppStoreServer
import Foundation
import Testing

/// A value of the wrong JSON type fails decoding (unlike an unknown enumeration value).
@Suite("Type mismatches fail decoding")
struct TypeMismatchModelTests {
    @Test func appAppleIdAsStringInHistory() {
        let json = #"{"appAppleId":"blue","bundleId":"com.example","environment":"LocalTesting","hasMore":true,"revision":"r","signedTransactions":[]}"#
        #expect(throws: DecodingError.self) {
            try ModelFixture.decode(HistoryResponse.self, json: json)
        }
    }

    @Test func appAppleIdAsStringInNotificationData() {
        #expect(throws: DecodingError.self) {
            try ModelFixture.decode(ResponseBodyV2DecodedPayload.self, json: #"{"data":{"appAppleId":"blue"}}"#)
        }
    }

    @Test func priceAsString() {
        #expect(throws: DecodingError.self) {
            try ModelFixture.decode(JWSTransactionDecodedPayload.self, json: #"{"price":"10.99"}"#)
        }
    }

    @Test func integerEnumerationAsString() {
        #expect(throws: DecodingError.self) {
            try ModelFixture.decode(JWSTransactionDecodedPayload.self, json: #"{"offerType":"1"}"#)
        }
    }

    @Test func stringEnumerationAsNumber() {
        #expect(throws: DecodingError.self) {
            try ModelFixture.decode(ResponseBodyV2DecodedPayload.self, json: #"{"notificationType":7}"#)
        }
    }

    @Test func dateAsString() {
        #expect(throws: DecodingError.self) {
            try ModelFixture.decode(ResponseBodyV2DecodedPayload.self, json: #"{"signedDate":"2023-04-12"}"#)
        }
    }

    @Test func priceBeyondInt64() {
        #expect(throws: DecodingError.self) {
            try ModelFixture.decode(JWSTransactionDecodedPayload.self, json: #"{"price":18446744073709551616}"#)
        }
    }

    @Test func winBackOfferIdsAsString() {
        #expect(throws: DecodingError.self) {
            try ModelFixture.decode(JWSRenewalInfoDecodedPayload.self, json: #"{"eligibleWinBackOfferIds":"a,b"}"#)
        }
    }
}
