import AppStoreServer
import AppStoreSimulator
import Crypto
import Foundation
import NIOHTTP1
import Testing
import VerdictService
import VerdictTestSupport

/// `offer.targeted` webhooks: enqueued with the decision (one transaction), delivered with an
/// HMAC-SHA256 signature over "t.body" that verifies with the shared secret, retried with backoff
/// until the endpoint answers 2xx — the same bytes every time. `retention.answered`: one event per
/// cancel-page decision with an answer, none for Apple's retry of the same request.
@Suite struct WebhookTests {
    static let secret = "whsec-0123456789abcdef"

    @Test(arguments: TestBackend.selected)
    func offerTargetedIsSignedAndRetriedUntilAccepted(_ backend: TestBackend) async throws {
        try await WebhookReceiver.with(failFirst: 2) { receiver, url in
            let settings = ["VERDICT_WEBHOOK_URL": url.absoluteString, "VERDICT_WEBHOOK_SECRET": Self.secret]
            try await ServiceHarness.with(backend, extraSettings: settings) { harness in
                let token = UUID()
                let (_, otid) = try await harness.subscribeFullPriceAnnual(appAccountToken: token)
                let off = try await harness.store.setAutoRenew(originalTransactionId: otid, enabled: false)
                _ = try await harness.waitUntilProcessed(off.notification.notificationUUID)

                // Two 503s, then 200 (backoff ≈ 0.5–1 s, then 1–2 s).
                let deadline = ContinuousClock.now + .seconds(30)
                while receiver.deliveries.last?.answered != 200, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(100))
                }
                let deliveries = receiver.deliveries
                try #require(deliveries.map(\.answered) == [503, 503, 200])
                #expect(Set(deliveries.map(\.body)).count == 1)
                #expect(Set(deliveries.compactMap(\.deliveryId)).count == 1)

                for delivery in deliveries {
                    let header = try #require(delivery.signature)
                    let parts = Dictionary(uniqueKeysWithValues: header.split(separator: ",").map {
                        let pair = $0.split(separator: "=", maxSplits: 1)
                        return (String(pair[0]), String(pair.count > 1 ? pair[1] : ""))
                    })
                    let t = try #require(parts["t"])
                    let expected = HMAC<SHA256>.authenticationCode(
                        for: Data("\(t).\(delivery.body)".utf8), using: SymmetricKey(data: Data(Self.secret.utf8)))
                    #expect(parts["v1"] == expected.map { String(format: "%02x", $0) }.joined())
                    let age = Int64(Date().timeIntervalSince1970) - (Int64(t) ?? 0)
                    #expect(age >= 0 && age < 60)
                }
                let event = try #require(JSONValue.parse(Data(deliveries[0].body.utf8))?.objectValue)
                #expect(event["type"]?.stringValue == "offer.targeted")
                let data = try #require(event["data"]?.objectValue)
                #expect(data["originalTransactionId"]?.stringValue == otid)
                #expect(data["appAccountToken"]?.stringValue == token.uuidString.lowercased())
                #expect(data["ruleId"]?.stringValue == "annual-full-price-payer")
                #expect(data["offer"]?.objectValue?["offerId"]?.stringValue == "lumen-annual-40off")
                let decisions = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)").body.jsonObject
                #expect(decisions["decisions"]?.arrayValue?.first?.objectValue?["id"] == data["decisionId"])
                // A wrong secret would not verify.
                let forged = HMAC<SHA256>.authenticationCode(
                    for: Data("0.\(deliveries[0].body)".utf8), using: SymmetricKey(data: Data("other".utf8)))
                #expect(deliveries[0].signature?.contains(forged.map { String(format: "%02x", $0) }.joined()) == false)
            }
        }
    }

    @Test(arguments: TestBackend.selected)
    func retentionAnsweredIsSentOncePerCancelPageAnswer(_ backend: TestBackend) async throws {
        try await RetentionRealtimeTests.withWebhook(backend) { harness, receiver in
            let token = UUID()
            let (_, otid) = try await harness.subscribeFullPriceAnnual(appAccountToken: token)
            let (body, request, status, _) = try await RetentionRealtimeTests.ask(harness, otid: otid, locale: "de-AT")
            #expect(status == 200)
            // Apple retries with the same request identifier: the stored decision, no new event.
            _ = try await RetentionRealtimeTests.ask(harness, body)

            func answered() -> [[String: JSONValue]] {
                receiver.deliveries.compactMap { JSONValue.parse(Data($0.body.utf8))?.objectValue }
                    .filter { $0["type"]?.stringValue == "retention.answered" }
            }
            let deadline = ContinuousClock.now + .seconds(30)
            while answered().isEmpty, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
            try await Task.sleep(for: .seconds(1))
            let events = answered()
            try #require(events.count == 1, "\(events.count) retention.answered events")
            let data = try #require(events[0]["data"]?.objectValue)
            #expect(data["originalTransactionId"]?.stringValue == otid)
            #expect(data["appAccountToken"]?.stringValue == token.uuidString.lowercased())
            #expect(data["requestIdentifier"]?.stringValue == request.requestIdentifier.uuidString.lowercased())
            #expect(data["trigger"]?.stringValue == "REALTIME_REQUEST")
            #expect(data["ruleId"]?.stringValue == "cancel-page-annual-full-price")
            let answer = try #require(data["answer"]?.objectValue)
            #expect(answer["message"]?.stringValue == "annual-stay-40off")
            #expect(answer["locale"]?.stringValue == "de-DE")
            #expect(answer["messageIdentifier"]?.stringValue
                == RetentionRealtimeTests.text("annual-stay-40off", "de-DE").identifier.uuidString.lowercased())
            #expect(answer["offer"]?.objectValue?["offerId"]?.stringValue == "lumen-annual-40off")
            #expect(answer["offer"]?.objectValue?["productId"]?.stringValue == "com.lumen.pro.annual")
            #expect(events[0]["id"] == data["decisionId"])
            let decisions = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)").body.jsonObject
            let ids = decisions["decisions"]?.arrayValue?.compactMap { $0.objectValue?["id"] } ?? []
            #expect(ids.contains(try #require(data["decisionId"])))
        }
    }
}
