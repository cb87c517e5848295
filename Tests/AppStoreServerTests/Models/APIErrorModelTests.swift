import AppStoreServer
import Foundation
import Testing

@Suite("API error model")
struct APIErrorModelTests {
    @Test func decodesErrorPayloads() throws {
        let payload = try ModelFixture.decode(ErrorPayload.self, json: #"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#)
        #expect(payload == ErrorPayload(errorCode: 4_290_000, errorMessage: "Rate limit exceeded."))
        #expect(payload.apiError == .rateLimitExceeded)
        let internalError = try ModelFixture.decode(ErrorPayload.self, json: #"{"errorCode":5000000,"errorMessage":"An unknown error occurred."}"#)
        #expect(internalError.apiError == .generalInternal)
        #expect(internalError.apiError.httpStatus == 500)
    }

    @Test func keepsUnknownErrorCodes() throws {
        let payload = try ModelFixture.decode(ErrorPayload.self, json: #"{"errorCode":9990000,"errorMessage":"Testing error."}"#)
        #expect(payload.errorCode == 9_990_000)
        #expect(payload.apiError.isKnown == false)
        #expect(payload.apiError.rawValue == 9_990_000)
        #expect(try ModelFixture.encode(payload) == #"{"errorCode":9990000,"errorMessage":"Testing error."}"#)
    }

    @Test func errorPayloadWithoutMessageFailsDecoding() {
        #expect(throws: DecodingError.self) {
            try ModelFixture.decode(ErrorPayload.self, json: #"{"errorCode":4000006}"#)
        }
    }

    @Test func listsAllDocumentedCodesOnce() {
        let codes = APIError.knownValues.map(\.rawValue)
        #expect(codes.count == 93)
        #expect(Set(codes).count == codes.count)
        #expect(codes == codes.sorted())
        #expect(APIError.knownValues.allSatisfy { [400, 403, 404, 409, 429, 500].contains($0.httpStatus) })
    }

    @Test(arguments: [
        (APIError.generalBadRequest, Int64(4_000_000)),
        (.invalidTransactionId, 4_000_006),
        (.multipleFiltersSupplied, 4_000_019),
        (.invalidCustomerConsented, 4_000_035),
        (.invalidRefundPreference, 4_000_044),
        (.invalidTransactionTypeNotSupported, 4_000_047),
        (.appTransactionIdNotSupported, 4_000_048),
        (.familyTransactionNotSupported, 4_000_185),
        (.consumptionPercentageAutoRenewableSubscription, 4_000_209),
        (.badRequestAboveImageRequiresAnImage, 4_000_224),
        (.invalidGroupId, 4_000_225),
        (.invalidAssignedTransactionNotSupported, 4_000_227),
        (.forbiddenNoPassingTest, 4_030_026),
        (.assignedSubscriptionExtensionIneligible, 4_030_028),
        (.transactionIdNotFound, 4_040_010),
        (.AppTransactionDoesNotExistError, 4_040_019),
        (.appTransactionDoesNotExist, 4_040_019),
        (.realtimeUrlNotFound, 4_040_021),
        (.groupNotFound, 4_040_022),
        (.messageAlreadyExists, 4_090_001),
        (.generalInternalRetryable, 5_000_001),
    ])
    func namesMapToCodes(error: APIError, code: Int64) {
        #expect(error.rawValue == code)
        #expect(error.isKnown)
    }

    @Test func decodesTheGroupAndAssignedTransactionErrors() throws {
        let refused = try ModelFixture.decode(ErrorPayload.self, json: #"{"errorCode":4000227,"errorMessage":"Invalid request. Assigned transactions are not supported."}"#)
        #expect(refused.apiError == .invalidAssignedTransactionNotSupported)
        #expect(refused.apiError.httpStatus == 400)
        #expect(refused.apiError.isRetryable == false)
        #expect(APIError.assignedSubscriptionExtensionIneligible.httpStatus == 403)
        #expect(APIError.groupNotFound.httpStatus == 404)
        #expect(APIError.groupNotFound.isRetryable == false)
    }

    @Test func httpStatusIsTheFirstThreeDigits() {
        #expect(APIError.invalidTransactionId.httpStatus == 400)
        #expect(APIError.subscriptionMaxExtension.httpStatus == 403)
        #expect(APIError.transactionIdNotFound.httpStatus == 404)
        #expect(APIError.imageAlreadyExists.httpStatus == 409)
        #expect(APIError.rateLimitExceeded.httpStatus == 429)
        #expect(APIError(rawValue: 5_030_000).httpStatus == 503)
    }

    @Test func exactlyTheDocumentedCodesAreRetryable() {
        let retryable = APIError.knownValues.filter(\.isRetryable).map(\.rawValue)
        #expect(retryable == [4_040_002, 4_040_004, 4_040_006, 4_290_000, 5_000_001])
        #expect(APIError(rawValue: 9_990_000).isRetryable == false)
    }
}
