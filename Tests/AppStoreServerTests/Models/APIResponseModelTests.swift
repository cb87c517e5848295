import AppStoreServer
import Foundation
import Testing

@Suite("API response models")
struct APIResponseModelTests {
    @Test func decodesTransactionHistory() throws {
        let history = try ModelFixture.decode(HistoryResponse.self, fixture: "transactionHistoryResponse")
        #expect(history == HistoryResponse(
            revision: "revision_output",
            hasMore: true,
            bundleId: "com.example",
            appAppleId: 323_232,
            environment: .localTesting,
            signedTransactions: ["signed_transaction_value", "signed_transaction_value2"]
        ))
    }

    @Test func decodesSubscriptionStatuses() throws {
        let status = try ModelFixture.decode(StatusResponse.self, fixture: "statusResponse")
        #expect(status.environment == .localTesting)
        #expect(status.bundleId == "com.example")
        #expect(status.appAppleId == 5_454_545)
        let groups = try #require(status.data)
        #expect(groups.map(\.subscriptionGroupIdentifier) == ["sub_group_one", "sub_group_two"])
        #expect(groups[0].lastTransactions?.map(\.status) == [.active, .revoked])
        #expect(groups[1].lastTransactions == [LastTransactionsItem(
            status: .expired,
            originalTransactionId: "3413453",
            signedTransactionInfo: "signed_transaction_three",
            signedRenewalInfo: "signed_renewal_three"
        )])
    }

    @Test func decodesNotificationHistory() throws {
        let response = try ModelFixture.decode(NotificationHistoryResponse.self, fixture: "notificationHistoryResponse")
        #expect(response.paginationToken == "57715481-805a-4283-8499-1c19b5d6b20a")
        #expect(response.hasMore == true)
        #expect(response.notificationHistory == [
            NotificationHistoryResponseItem(signedPayload: "signed_payload_one", sendAttempts: [
                SendAttemptItem(attemptDate: ModelFixture.date(1_698_148_900_000), sendAttemptResult: .noResponse),
                SendAttemptItem(attemptDate: ModelFixture.date(1_698_148_950_000), sendAttemptResult: .success),
            ]),
            NotificationHistoryResponseItem(signedPayload: "signed_payload_two", sendAttempts: [
                SendAttemptItem(attemptDate: ModelFixture.date(1_698_148_800_000), sendAttemptResult: .circularRedirect),
            ]),
        ])
    }

    @Test func decodesRefundHistory() throws {
        let json = #"{"signedTransactions":["a","b"],"revision":"rev","hasMore":false}"#
        let response = try ModelFixture.decode(RefundHistoryResponse.self, json: json)
        #expect(response == RefundHistoryResponse(signedTransactions: ["a", "b"], revision: "rev", hasMore: false))
    }

    @Test func decodesTestNotificationResponses() throws {
        let sent = try ModelFixture.decode(SendTestNotificationResponse.self, json: #"{"testNotificationToken":"ce3af791-365e-4c60-841b-1674b43c1609_1698148900000"}"#)
        #expect(sent.testNotificationToken == "ce3af791-365e-4c60-841b-1674b43c1609_1698148900000")
        let json = #"{"signedPayload":"p","sendAttempts":[{"attemptDate":1698148900000,"sendAttemptResult":"UNSUPPORTED_CHARSET"}]}"#
        let checked = try ModelFixture.decode(CheckTestNotificationResponse.self, json: json)
        #expect(checked.signedPayload == "p")
        #expect(checked.sendAttempts?.first?.sendAttemptResult == .unsupportedCharset)
        #expect(SendAttemptResult.unsuportedCharset == .unsupportedCharset)
    }

    @Test func decodesSingleSignedValueResponses() throws {
        #expect(try ModelFixture.decode(TransactionInfoResponse.self, json: #"{"signedTransactionInfo":"t"}"#).signedTransactionInfo == "t")
        #expect(try ModelFixture.decode(AppTransactionInfoResponse.self, json: #"{"signedAppTransactionInfo":"a"}"#).signedAppTransactionInfo == "a")
        let lookup = try ModelFixture.decode(OrderLookupResponse.self, json: #"{"status":1,"signedTransactions":["x"]}"#)
        #expect(lookup == OrderLookupResponse(status: .invalid, signedTransactions: ["x"]))
    }

    @Test func decodesRenewalExtensionResponses() throws {
        let single = try ModelFixture.decode(
            ExtendRenewalDateResponse.self,
            json: #"{"originalTransactionId":"2312412","webOrderLineItemId":"9993","success":true,"effectiveDate":1698148900000}"#
        )
        #expect(single == ExtendRenewalDateResponse(
            originalTransactionId: "2312412", webOrderLineItemId: "9993", success: true,
            effectiveDate: ModelFixture.date(1_698_148_900_000)
        ))
        let status = try ModelFixture.decode(
            MassExtendRenewalDateStatusResponse.self,
            json: #"{"requestIdentifier":"r","complete":true,"completeDate":1698148900000,"succeededCount":30,"failedCount":2}"#
        )
        #expect(status == MassExtendRenewalDateStatusResponse(
            requestIdentifier: "r", complete: true, completeDate: ModelFixture.date(1_698_148_900_000),
            succeededCount: 30, failedCount: 2
        ))
        #expect(try ModelFixture.decode(MassExtendRenewalDateResponse.self, json: #"{"requestIdentifier":"r"}"#).requestIdentifier == "r")
    }

    @Test func encodesRenewalExtensionRequests() throws {
        let single = ExtendRenewalDateRequest(extendByDays: 45, extendReasonCode: .customerSatisfaction, requestIdentifier: "fdf964a4")
        #expect(try ModelFixture.encode(single) == #"{"extendByDays":45,"extendReasonCode":1,"requestIdentifier":"fdf964a4"}"#)
        let mass = MassExtendRenewalDateRequest(
            extendByDays: 45, extendReasonCode: .serviceIssueOrOutage, requestIdentifier: "r",
            storefrontCountryCodes: ["USA", "MEX"], productId: "com.example.product"
        )
        #expect(try ModelFixture.encode(mass)
            == #"{"extendByDays":45,"extendReasonCode":3,"productId":"com.example.product","requestIdentifier":"r","storefrontCountryCodes":["USA","MEX"]}"#)
    }

    @Test func encodesAppAccountTokenRequestInUppercase() throws {
        let token = try #require(UUID(uuidString: "7389a31a-fb6d-4569-a2a6-db7d85d84813"))
        #expect(try ModelFixture.encode(UpdateAppAccountTokenRequest(appAccountToken: token))
            == #"{"appAccountToken":"7389A31A-FB6D-4569-A2A6-DB7D85D84813"}"#)
    }
}
