import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

@testable import VerdictService

/// The stored content is built from the JSON Apple signed for the nested payloads; read back, it
/// must be exactly the content the models give — and anything not framed as one JSON object falls
/// back to encoding the models.
@Suite struct StoredNotificationContentTests {
    @Test func storedTextReadsBackAsTheVerifiedContent() async throws {
        try await ServiceHarness.with(.sqlite) { harness in
            await harness.simulator.deliverer.setDeliveryURL(nil)
            let subscribed = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly", price: 9_990,
                                                                                currency: "EUR"))
            let verified = try await harness.service.apps.first.verifier.verifyNotification(subscribed.notification.signedPayload)
            #expect(verified.transactionJSON != nil && verified.renewalInfoJSON != nil)
            let expected = StoredNotificationContent(verified)
            let text = try StoredNotificationContent(verified).encoded(nestedJSONOf: verified)
            #expect(try StoredNotificationContent.decode(text) == expected)
            #expect(try StoredNotificationContent.decode(try expected.encoded()) == expected)
            // The nested payloads are the signed bytes themselves.
            let transactionJSON = try #require(verified.transactionJSON)
            let transactionText = String(decoding: transactionJSON, as: UTF8.self)
            #expect(text.contains(#""transaction":"# + transactionText))

            // Through the service: what is stored is that text.
            #expect(try await harness.deliver(subscribed.notification.signedPayload).status == 200)
            let stored = try await harness.service.apps.first.repository.notification(uuid: subscribed.notification.notificationUUID)
            #expect(try StoredNotificationContent.decode(try #require(stored).notification.decodedJSON) == expected)

            // Not framed as an object (or not UTF-8): the models are encoded instead.
            for bad in [Data("[1]".utf8), Data(" {\"a\":1} x".utf8), Data([0x7B, 0xFF, 0x7D]), Data()] {
                var odd = verified
                odd.renewalInfoJSON = bad
                let fallback = try StoredNotificationContent(odd).encoded(nestedJSONOf: odd)
                #expect(try StoredNotificationContent.decode(fallback) == expected)
                #expect(fallback == (try expected.encoded()))
            }
        }
    }
}
