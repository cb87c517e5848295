import AppStoreServer
import AppStoreSimulator
import Foundation
import NIOHTTP1
import Testing
import VerdictService
import VerdictStorage
import VerdictTestSupport

/// `POST /v1/notifications` end to end: the simulator signs and delivers, the service verifies,
/// stores once, processes once; hostile and malformed input is refused with nothing stored.
@Suite(.serialized) struct NotificationIntakeTests {
    @Test(arguments: TestBackend.selected)
    func simulatorDeliveriesAreStoredAndProcessedOnce(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let subscribed = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly", price: 9_990, currency: "USD"))
            let renewed = try await harness.store.renew(originalTransactionId: subscribed.originalTransactionId!)
            await harness.simulator.deliverer.waitUntilIdle()
            for result in [subscribed, renewed] {
                let uuid = result.notification.notificationUUID
                let record = try await harness.waitUntilProcessed(uuid)
                #expect(record["state"]?.stringValue == "processed")
                #expect(record["processedCount"]?.integerValue == 1)
                #expect(record["attempts"]?.integerValue == 1)
                #expect(record["notificationType"]?.stringValue == result.notification.notificationType.rawValue)
                #expect(record["source"]?.stringValue == "delivery")
                #expect(await harness.store.notification(uuid: uuid)?.wasDelivered == true)
                // The stored content holds the nested JWS decoded, not their signed strings again.
                let content = try #require(record["content"]?.objectValue)
                let data = try #require(content["payload"]?.objectValue?["data"]?.objectValue)
                #expect(data["signedTransactionInfo"] == nil && data["signedRenewalInfo"] == nil)
                #expect(data["bundleId"]?.stringValue == harness.store.configuration.bundleId)
                #expect(content["transaction"]?.objectValue?["transactionId"]?.stringValue
                        == result.notification.transactionId)
                #expect(content["renewalInfo"]?.objectValue?["originalTransactionId"]?.stringValue == subscribed.originalTransactionId)
            }
            let otid = try #require(subscribed.originalTransactionId)
            let transactions = try await harness.service.apps.first.repository.transactions(originalTransactionId: otid)
            #expect(transactions.count == 2)
            let customer = try await harness.service.apps.first.repository.customer(originalTransactionId: otid)
            #expect(customer?.appTransactionId == subscribed.notification.appTransactionId)
            #expect(try await harness.service.apps.first.repository.notificationCount() == 2)
        }
    }

    @Test(arguments: TestBackend.selected)
    func duplicateDeliveryChangesNothing(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            await harness.simulator.deliverer.setDeliveryURL(nil)
            let result = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            let signed = result.notification.signedPayload
            let first = try await harness.deliver(signed)
            #expect(first.status == 200)
            #expect(first.body.jsonObject["status"]?.stringValue == "accepted")
            #expect(first.body.jsonObject["notificationUUID"]?.stringValue == result.notification.notificationUUID)
            let processed = try await harness.waitUntilProcessed(result.notification.notificationUUID)
            for _ in 0..<3 {
                let again = try await harness.deliver(signed)
                #expect(again.status == 200)
                #expect(again.body.jsonObject["status"]?.stringValue == "duplicate")
            }
            let after = try await harness.waitUntilProcessed(result.notification.notificationUUID)
            #expect(after["processedCount"]?.integerValue == 1)
            #expect(after["processedAt"] == processed["processedAt"])
            #expect(try await harness.service.apps.first.repository.notificationCount() == 1)
        }
    }

    @Test(arguments: TestBackend.selected)
    func olderRetryDoesNotOverwriteNewerState(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            await harness.simulator.deliverer.setDeliveryURL(nil)
            let subscribed = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            let otid = try #require(subscribed.originalTransactionId)
            harness.store.clock.advance(by: 60)
            let off = try await harness.store.setAutoRenew(originalTransactionId: otid, enabled: false)
            // The newer notification (auto-renew off) arrives first, then Apple's retry of the older one.
            #expect(try await harness.deliver(off.notification.signedPayload).status == 200)
            _ = try await harness.waitUntilProcessed(off.notification.notificationUUID)
            #expect(try await harness.deliver(subscribed.notification.signedPayload).status == 200)
            let older = try await harness.waitUntilProcessed(subscribed.notification.notificationUUID)
            #expect(older["state"]?.stringValue == "processed")
            let renewal = try #require(try await harness.service.apps.first.repository.renewalInfo(originalTransactionId: otid))
            #expect(renewal.autoRenewStatus == 0, "the older notification's renewal info (auto-renew on) must not overwrite")
            #expect(renewal.signedDate == off.renewalInfo?.signedDate?.appStoreMilliseconds)
            #expect(try await harness.service.apps.first.repository.notificationCount() == 2)
        }
    }

    @Test(arguments: TestBackend.selected)
    func tamperedPayloadIsRefusedAndNothingStored(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            await harness.simulator.deliverer.setDeliveryURL(nil)
            let result = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            let parts = result.notification.signedPayload.split(separator: ".").map(String.init)
            // Flip one character of the payload segment: the signature no longer matches.
            var payload = Array(parts[1])
            payload[10] = payload[10] == "A" ? "B" : "A"
            let tampered = [parts[0], String(payload), parts[2]].joined(separator: ".")
            let answer = try await harness.deliver(tampered)
            #expect(answer.status == 422)
            let error = answer.body.jsonObject["error"]?.objectValue
            #expect(["INVALID_SIGNATURE", "INVALID_JWS", "INVALID_PAYLOAD"].contains(error?["code"]?.stringValue ?? ""))
            #expect(error?["message"]?.stringValue?.isEmpty == false)
            // A payload signed by another PKI (an attacker's chain).
            let foreign = SimulatorStore(
                configuration: SimulatorAppConfiguration(bundleId: ServiceHarness.bundleId, appAppleId: 1_234_567_890, environment: .sandbox),
                pki: try SimulatorPKI()
            )
            let forged = try await foreign.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            let forgedAnswer = try await harness.deliver(forged.notification.signedPayload)
            #expect(forgedAnswer.status == 422)
            #expect(forgedAnswer.body.jsonObject["error"]?.objectValue?["code"]?.stringValue == "INVALID_CHAIN")
            #expect(try await harness.service.apps.first.repository.notificationCount() == 0)
            #expect(try await harness.service.apps.first.repository.queueStatistics(now: 0).queued == 0)
        }
    }

    @Test func malformedAndOversizedBodiesAreRefused() async throws {
        try await ServiceHarness.with(.sqlite) { harness in
            let cases: [(Data, String?, Int, String)] = [
                (Data("not json".utf8), "application/json", 400, "MALFORMED_JSON"),
                (Data("[1,2]".utf8), "application/json", 400, "MALFORMED_JSON"),
                (Data(#"{"signedPayload": 42}"#.utf8), "application/json", 400, "MALFORMED_JSON"),
                (Data(#"{"other": "x"}"#.utf8), "application/json", 400, "MISSING_FIELD"),
                (Data(#"{"signedPayload": ""}"#.utf8), "application/json", 400, "MISSING_FIELD"),
                (Data(#"{"signedPayload": "a.b.c"}"#.utf8), "text/plain", 415, "UNSUPPORTED_MEDIA_TYPE"),
                (Data(#"{"signedPayload": "a.b.c"}"#.utf8), nil, 415, "UNSUPPORTED_MEDIA_TYPE"),
                (Data(#"{"signedPayload": "\#(String(repeating: "A", count: 70_000))"}"#.utf8), "application/json", 413, "PAYLOAD_TOO_LARGE"),
                (Data(#"{"signedPayload": "a.b.c"}"#.utf8), "application/json; charset=utf-8", 422, "INVALID_JWS"),
            ]
            for (body, contentType, status, code) in cases {
                let answer = try await harness.request(.POST, "/v1/notifications", body: body, contentType: contentType, token: nil)
                #expect(answer.status == status, "\(code)")
                #expect(answer.body.jsonObject["error"]?.objectValue?["code"]?.stringValue == code)
            }
            #expect(try await harness.service.apps.first.repository.notificationCount() == 0)
        }
    }

    @Test func testNotificationsAreRecordedAndAcknowledged() async throws {
        try await ServiceHarness.with(.sqlite) { harness in
            let (_, notification) = try await harness.store.sendTestNotification()
            await harness.simulator.deliverer.waitUntilIdle()
            let record = try await harness.waitUntilProcessed(notification.notificationUUID)
            #expect(record["notificationType"]?.stringValue == "TEST")
            #expect(record["state"]?.stringValue == "processed")
        }
    }

    @Test func lookupsNeedTheTokenAndUnknownIdsAre404() async throws {
        try await RouterHarness.with { harness in
            #expect(try await harness.request(.GET, "/v1/notifications/x", token: nil).status == 401)
            #expect(try await harness.request(.GET, "/v1/notifications/x", token: "wrong-token-wrong-token").status == 401)
            let missing = try await harness.request(.GET, "/v1/notifications/does-not-exist")
            #expect(missing.status == 404)
            #expect(missing.body.jsonObject["error"]?.objectValue?["code"]?.stringValue == "NOT_FOUND")
        }
    }
}
