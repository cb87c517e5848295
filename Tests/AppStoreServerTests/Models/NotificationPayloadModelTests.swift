import AppStoreServer
import Foundation
import Testing

@Suite("Notification payload models")
struct NotificationPayloadModelTests {
    @Test func decodesConsumptionRequestNotificationWithEveryDataField() throws {
        let payload = try ModelFixture.decode(ResponseBodyV2DecodedPayload.self, fixture: "consumptionRequestNotification")
        #expect(payload.notificationType == .consumptionRequest)
        #expect(payload.subtype == nil)
        #expect(payload.notificationUUID == "002e14d5-51f5-4503-b5a8-c3a1af68eb20")
        #expect(payload.version == "2.0")
        #expect(payload.signedDate == ModelFixture.date(1_698_148_900_000))
        #expect(payload.summary == nil && payload.externalPurchaseToken == nil && payload.appData == nil)
        let data = try #require(payload.data)
        #expect(data == NotificationData(
            environment: .localTesting,
            appAppleId: 41234,
            bundleId: "com.example",
            bundleVersion: "1.2.3",
            signedTransactionInfo: "signed_transaction_info_value",
            signedRenewalInfo: "signed_renewal_info_value",
            status: .active,
            consumptionRequestReason: .unintendedPurchase
        ))
    }

    @Test func decodesSubtypeAndStatus() throws {
        let payload = try ModelFixture.decode(ResponseBodyV2DecodedPayload.self, fixture: "renewalStatusNotification")
        #expect(payload.notificationType == .didChangeRenewalStatus)
        #expect(payload.subtype == .autoRenewDisabled)
        #expect(payload.data?.status == .billingRetry)
        #expect(payload.data?.appAppleId == nil)
        #expect(payload.data?.consumptionRequestReason == nil)
        #expect(ModelFixture.Identity(payload) == ModelFixture.Identity(bundleId: "com.example", appAppleId: nil, environment: .sandbox))
    }

    @Test func decodesSummaryAndTakesIdentityFromIt() throws {
        let payload = try ModelFixture.decode(ResponseBodyV2DecodedPayload.self, fixture: "summaryNotification")
        #expect(payload.notificationType == .renewalExtension)
        #expect(payload.subtype == .summary)
        #expect(payload.data == nil)
        #expect(payload.summary == Summary(
            environment: .production,
            appAppleId: 41234,
            bundleId: "com.example",
            productId: "com.example.product",
            requestIdentifier: "efb27071-45a4-4aca-9854-2a1e9146f265",
            storefrontCountryCodes: ["CAN", "USA", "MEX"],
            succeededCount: 5,
            failedCount: 2
        ))
        #expect(ModelFixture.Identity(payload) == ModelFixture.Identity(bundleId: "com.example", appAppleId: 41234, environment: .production))
    }

    @Test func decodesExternalPurchaseTokenWithRawMillisecondCreationDate() throws {
        let payload = try ModelFixture.decode(ResponseBodyV2DecodedPayload.self, fixture: "externalPurchaseTokenNotification")
        #expect(payload.notificationType == .externalPurchaseToken)
        #expect(payload.subtype == .unreported)
        let token = try #require(payload.externalPurchaseToken)
        #expect(token.externalPurchaseId == "SANDBOX_b2158121-7af9-49d4-9561-1f588205523e")
        #expect(token.tokenCreationDate == 1_698_148_950_000)
        #expect(token.appAppleId == 55555)
        #expect(token.bundleId == "com.example")
        #expect(ModelFixture.Identity(payload) == ModelFixture.Identity(bundleId: "com.example", appAppleId: 55555, environment: .sandbox))
    }

    @Test func externalPurchaseTokenWithoutSandboxPrefixIsProduction() {
        let token = ExternalPurchaseToken(externalPurchaseId: "b2158121-7af9-49d4-9561-1f588205523e", appAppleId: 7, bundleId: "com.example")
        let payload = ResponseBodyV2DecodedPayload(externalPurchaseToken: token)
        #expect(ModelFixture.Identity(payload) == ModelFixture.Identity(bundleId: "com.example", appAppleId: 7, environment: .production))
    }

    @Test(arguments: [
        ("SANDBOX", AppStoreEnvironment.sandbox),
        ("SANDBOX1234", .sandbox),
        ("sandbox_1", .production),
        ("X-SANDBOX", .production),
        ("", .production),
    ])
    func externalPurchaseTokenEnvironmentFollowsTheExactPrefix(externalPurchaseId: String, environment: AppStoreEnvironment) {
        let token = ExternalPurchaseToken(externalPurchaseId: externalPurchaseId, bundleId: "com.example")
        #expect(ResponseBodyV2DecodedPayload(externalPurchaseToken: token).appIdentity.environment == environment)
    }

    @Test func decodesAppDataAndTakesIdentityFromIt() throws {
        let payload = try ModelFixture.decode(ResponseBodyV2DecodedPayload.self, fixture: "rescindConsentNotification")
        #expect(payload.notificationType == .rescindConsent)
        #expect(payload.appData == AppData(
            appAppleId: 41234, bundleId: "com.example", environment: .sandbox,
            signedAppTransactionInfo: "signed_app_transaction_info_value"
        ))
        #expect(ModelFixture.Identity(payload) == ModelFixture.Identity(bundleId: "com.example", appAppleId: 41234, environment: .sandbox))
    }

    @Test func identityPrefersDataOverSummaryOverTokenOverAppData() {
        let data = NotificationData(environment: .xcode, appAppleId: 1, bundleId: "data")
        let summary = Summary(environment: .production, appAppleId: 2, bundleId: "summary")
        let token = ExternalPurchaseToken(externalPurchaseId: "SANDBOX_x", appAppleId: 3, bundleId: "token")
        let appData = AppData(appAppleId: 4, bundleId: "appData", environment: .localTesting)
        let all = ResponseBodyV2DecodedPayload(data: data, summary: summary, externalPurchaseToken: token, appData: appData)
        #expect(ModelFixture.Identity(all) == ModelFixture.Identity(bundleId: "data", appAppleId: 1, environment: .xcode))
        let noData = ResponseBodyV2DecodedPayload(summary: summary, externalPurchaseToken: token, appData: appData)
        #expect(ModelFixture.Identity(noData) == ModelFixture.Identity(bundleId: "summary", appAppleId: 2, environment: .production))
        let tokenAndAppData = ResponseBodyV2DecodedPayload(externalPurchaseToken: token, appData: appData)
        #expect(ModelFixture.Identity(tokenAndAppData) == ModelFixture.Identity(bundleId: "token", appAppleId: 3, environment: .sandbox))
    }

    @Test func identityIsAllNilWithoutAnySource() throws {
        let payload = try ModelFixture.decode(
            ResponseBodyV2DecodedPayload.self,
            json: #"{"notificationType":"TEST","notificationUUID":"x","signedDate":1681314324000}"#
        )
        let identity = payload.appIdentity
        #expect(identity.bundleId == nil && identity.appAppleId == nil && identity.environment == nil)
    }

    @Test func decodesTheSignedNotificationEnvelope() throws {
        let body = try ModelFixture.decode(ResponseBodyV2.self, json: #"{"signedPayload":"a.b.c"}"#)
        #expect(body.signedPayload == "a.b.c")
        #expect(try ModelFixture.encode(body) == #"{"signedPayload":"a.b.c"}"#)
    }

    @Test func explicitNullsDecodeAsAbsent() throws {
        let payload = try ModelFixture.decode(
            ResponseBodyV2DecodedPayload.self,
            json: #"{"notificationType":"REFUND","subtype":null,"data":{"status":null,"appAppleId":null}}"#
        )
        #expect(payload.subtype == nil)
        #expect(payload.data == NotificationData())
    }
}
