import AppStoreServer
import Foundation
import Testing

/// Request shapes per endpoint, with Apple's canned response bodies.
@Suite("API: endpoint request shapes")
struct AppStoreServerAPIClientEndpointTests {
    static let base = "https://api.storekit.apple.com"

    @Test func getTransactionHistorySendsEveryFilter() async throws {
        let transport = RecordingTransport([APIClientFixtures.response(
            #"{"revision":"revision_output","hasMore":true,"bundleId":"com.example","appAppleId":323232,"environment":"LocalTesting","signedTransactions":["signed_transaction_value","signed_transaction_value2"]}"#
        )])
        let request = TransactionHistoryRequest(
            startDate: Date(appStoreMilliseconds: 123455), endDate: Date(appStoreMilliseconds: 123456),
            productIds: ["com.example.1", "com.example.2"], productTypes: [.consumable, .autoRenewable],
            sort: .ascending, subscriptionGroupIdentifiers: ["sub_group_id", "sub_group_id_2"],
            inAppOwnershipType: .familyShared, revoked: false
        )
        let response = try await APIClientFixtures.client(transport)
            .getTransactionHistory(transactionId: "1234", revision: "revision_input", request: request)
        #expect(transport.requests.first?.method == "GET")
        #expect(transport.requests.first?.url.absoluteString == Self.base + "/inApps/v2/history/1234"
            + "?revision=revision_input&startDate=123455&endDate=123456&productId=com.example.1&productId=com.example.2"
            + "&productType=CONSUMABLE&productType=AUTO_RENEWABLE&sort=ASCENDING"
            + "&subscriptionGroupIdentifier=sub_group_id&subscriptionGroupIdentifier=sub_group_id_2"
            + "&inAppOwnershipType=FAMILY_SHARED&revoked=false")
        #expect(response.revision == "revision_output")
        #expect(response.hasMore == true)
        #expect(response.appAppleId == 323232)
        #expect(response.signedTransactions == ["signed_transaction_value", "signed_transaction_value2"])
    }

    @Test func getAllSubscriptionStatusesRepeatsStatus() async throws {
        let transport = RecordingTransport([APIClientFixtures.response(
            #"{"environment":"LocalTesting","bundleId":"com.example","appAppleId":5454545,"data":[{"subscriptionGroupIdentifier":"sub_group_one","lastTransactions":[{"status":1,"originalTransactionId":"3749183","signedTransactionInfo":"signed_transaction_one","signedRenewalInfo":"signed_renewal_one"}]}]}"#
        )])
        let response = try await APIClientFixtures.client(transport)
            .getAllSubscriptionStatuses(transactionId: "4321", status: [.expired, .active])
        #expect(transport.requests.first?.method == "GET")
        #expect(transport.requests.first?.url.absoluteString == Self.base + "/inApps/v1/subscriptions/4321?status=2&status=1")
        #expect(response.data?.first?.lastTransactions?.first?.status == .active)
    }

    @Test func getRefundHistorySendsRevision() async throws {
        let transport = RecordingTransport([APIClientFixtures.response(
            #"{"signedTransactions":["signed_transaction_one"],"revision":"revision_output","hasMore":false}"#
        )])
        let response = try await APIClientFixtures.client(transport).getRefundHistory(transactionId: "555555", revision: "revision_input")
        #expect(transport.requests.first?.method == "GET")
        #expect(transport.requests.first?.url.absoluteString == Self.base + "/inApps/v2/refund/lookup/555555?revision=revision_input")
        #expect(response.signedTransactions == ["signed_transaction_one"])
    }

    @Test func sendConsumptionInformationPutsV2BodyAndAccepts202() async throws {
        let transport = RecordingTransport(status: 202)
        try await APIClientFixtures.client(transport).sendConsumptionInformation(
            transactionId: "49571273",
            request: ConsumptionRequest(customerConsented: true, consumptionPercentage: 50000, deliveryStatus: .delivered,
                                        refundPreference: .grantProrated, sampleContentProvided: false)
        )
        let request = try #require(transport.requests.first)
        #expect(request.method == "PUT")
        #expect(request.url.absoluteString == Self.base + "/inApps/v2/transactions/consumption/49571273")
        #expect(request.header("Content-Type") == "application/json")
        #expect(String(decoding: try #require(request.body), as: UTF8.self) ==
            #"{"consumptionPercentage":50000,"customerConsented":true,"deliveryStatus":"DELIVERED","refundPreference":"GRANT_PRORATED","sampleContentProvided":false}"#)
    }

    @Test func getNotificationHistoryPostsBodyWithPaginationTokenQuery() async throws {
        let transport = RecordingTransport([APIClientFixtures.response(
            #"{"paginationToken":"57715481-805a-4283-8499-1c19b5d6b20a","hasMore":true,"notificationHistory":[{"sendAttempts":[{"attemptDate":1698148900000,"sendAttemptResult":"NO_RESPONSE"}],"signedPayload":"signed_payload_one"}]}"#
        )])
        let body = NotificationHistoryRequest(
            startDate: Date(appStoreMilliseconds: 1_698_148_900_000), endDate: Date(appStoreMilliseconds: 1_698_148_950_000),
            notificationType: .subscribed, notificationSubtype: .initialBuy, transactionId: "999733843", onlyFailures: true
        )
        let response = try await APIClientFixtures.client(transport).getNotificationHistory(
            paginationToken: "a036bc0e-52b8-4bee-82fc-8c24cb6715d6", request: body
        )
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == Self.base + "/inApps/v1/notifications/history?paginationToken=a036bc0e-52b8-4bee-82fc-8c24cb6715d6")
        #expect(request.header("Content-Type") == "application/json")
        #expect(String(decoding: try #require(request.body), as: UTF8.self) ==
            #"{"endDate":1698148950000,"notificationSubtype":"INITIAL_BUY","notificationType":"SUBSCRIBED","onlyFailures":true,"startDate":1698148900000,"transactionId":"999733843"}"#)
        #expect(response.paginationToken == "57715481-805a-4283-8499-1c19b5d6b20a")
        #expect(response.notificationHistory?.first?.sendAttempts?.first?.attemptDate == Date(appStoreMilliseconds: 1_698_148_900_000))
    }

    @Test func requestTestNotificationPostsWithoutBody() async throws {
        let transport = RecordingTransport([APIClientFixtures.response(#"{"testNotificationToken":"ce3af791-365e-4c60-841b-1674b43c1609"}"#)])
        let response = try await APIClientFixtures.client(transport).requestTestNotification()
        let request = try #require(transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == Self.base + "/inApps/v1/notifications/test")
        #expect(request.body == nil)
        #expect(request.header("Content-Type") == nil)
        #expect(response.testNotificationToken == "ce3af791-365e-4c60-841b-1674b43c1609")
    }

    @Test func getTestNotificationStatusPutsTokenInPath() async throws {
        let transport = RecordingTransport([APIClientFixtures.response(
            #"{"signedPayload":"signed_payload","sendAttempts":[{"attemptDate":1698148900000,"sendAttemptResult":"NO_RESPONSE"}]}"#
        )])
        let response = try await APIClientFixtures.client(transport).getTestNotificationStatus(testNotificationToken: "8cd2974c-f905-492a-bf9a-b2f47c791d19")
        #expect(transport.requests.first?.method == "GET")
        #expect(transport.requests.first?.url.absoluteString == Self.base + "/inApps/v1/notifications/test/8cd2974c-f905-492a-bf9a-b2f47c791d19")
        #expect(response.signedPayload == "signed_payload")
    }

    @Test func pathAndQueryValuesArePercentEncoded() async throws {
        let transport = RecordingTransport([APIClientFixtures.response(#"{"hasMore":false}"#)])
        _ = try await APIClientFixtures.client(transport).getTransactionHistory(
            transactionId: "a/b c?#", request: TransactionHistoryRequest(productIds: ["com.example+1 é&x=y"])
        )
        #expect(transport.requests.first?.url.absoluteString ==
            Self.base + "/inApps/v2/history/a%2Fb%20c%3F%23?productId=com.example%2B1%20%C3%A9%26x%3Dy")
    }

    @Test(arguments: ["", ".", ".."])
    func pathParameterThatWouldChangeThePathIsRejectedUnsent(_ transactionId: String) async throws {
        let transport = RecordingTransport(status: 200)
        let failure = await #expect(throws: AppStoreAPIFailure.self) {
            _ = try await APIClientFixtures.client(transport).getTransactionInfo(transactionId: transactionId)
        }
        #expect(failure?.kind == .invalidRequest)
        #expect(failure?.isRetryable == false)
        #expect(transport.requests.isEmpty)
    }
}
