import AppStoreServer
import AppStoreSimulator
import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import RuleEngine
import Testing
@testable import VerdictService
import VerdictStorage
import VerdictTestSupport

/// `POST /v1/retention/realtime` over real HTTP: the simulator signs the App Store's realtime
/// request for a subscriber it sold to; Verdict answers from the shipped `retention:` rules
/// with an approved message and an offer whose JWS verifies independently, stores the decision
/// once per request identifier, lets Apple fall back when it cannot answer, and does not answer
/// another app at all.
@Suite struct RetentionRealtimeTests {
    static let bundle = try! RuleBundle.load(directory: ServiceHarness.rulesDirectory)
    /// The whole suite runs beside these tests: a deadline that a loaded machine does not miss.
    static let settings = ["VERDICT_RETENTION_DEADLINE": "5000"]

    /// Every text of `ids` marked approved, with the images it shows (unless `images` is false),
    /// as `verdict appstore messages sync` records them.
    static func approve(_ ids: [String], images: Bool = true, in harness: ServiceHarness) async throws {
        let texts = ids.flatMap { id in bundle.messages.message(id)!.locales.map { (id, $0) } }
        var states = texts.map { id, text in
            RetentionMessageState(
                messageIdentifier: text.identifier.uuidString.lowercased(), messageId: id, locale: text.locale, state: "APPROVED",
                checkedAt: 0)
        }
        if images {
            let shown = Set(texts.flatMap { $0.1.imageIdentifiers })
            states += bundle.messages.images.filter { shown.contains($0.identifier) }.map {
                RetentionMessageState(
                    messageIdentifier: $0.identifier.uuidString.lowercased(), messageId: $0.id, locale: $0.size, state: "APPROVED",
                    checkedAt: 0, kind: .image)
            }
        }
        try await harness.service.apps.first.repository.recordRetentionMessageStates(states)
    }

    /// A service whose webhook events go to a receiver, with the shipped cancel-page messages approved.
    static func withWebhook(_ backend: TestBackend, _ body: (ServiceHarness, WebhookReceiver) async throws -> Void) async throws {
        try await WebhookReceiver.with(failFirst: 0) { receiver, url in
            var settings = ["VERDICT_WEBHOOK_URL": url.absoluteString, "VERDICT_WEBHOOK_SECRET": WebhookTests.secret]
            settings.merge(Self.settings) { mine, _ in mine }
            try await ServiceHarness.with(backend, extraSettings: settings) { harness in
                try await Self.approve(["annual-stay-40off", "switch-to-monthly", "what-you-lose"], in: harness)
                try await body(harness, receiver)
            }
        }
    }

    static func text(_ id: String, _ locale: String) -> RetentionMessages.Localized {
        bundle.messages.message(id)!.localized(for: locale)!
    }

    static func post(_ harness: ServiceHarness, _ body: RealtimeRequestBody) async throws -> (status: Int, body: Data) {
        try await harness.request(.POST, "/v1/retention/realtime", body: try JSONEncoder().encode(body), token: nil)
    }

    /// Realtime answers that let Apple fall back because the deadline passed, so far.
    static func deadlineFallbacks(_ harness: ServiceHarness) async throws -> Int {
        let (_, metrics) = try await harness.request(.GET, "/metrics")
        return String(decoding: metrics, as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("verdict_retention_realtime_total{") && $0.contains(#"cause="deadline""#) }
            .compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +)
    }

    /// Asks for `otid`'s cancel page, and asks again with the same request identifier (as Apple
    /// retries) while the answer is a deadline fallback: the whole suite runs beside these tests,
    /// and a loaded machine can miss the deadline (the deadline itself is tested in
    /// FirstToFinishTests). A decision stored late is answered to the retry. At most 4 attempts.
    static func ask(_ harness: ServiceHarness, otid: String, locale: String = "en-US") async throws
        -> (body: RealtimeRequestBody, request: DecodedRealtimeRequestBody, status: Int, answer: Data)
    {
        let (body, request) = try await harness.store.realtimeRequest(originalTransactionId: otid, userLocale: locale)
        let (status, data) = try await ask(harness, body)
        return (body, request, status, data)
    }

    /// Posts `body` until its answer is not a deadline fallback (at most 4 times).
    static func ask(_ harness: ServiceHarness, _ body: RealtimeRequestBody) async throws -> (status: Int, answer: Data) {
        var attempt = 1
        while true {
            let before = try await deadlineFallbacks(harness)
            let (status, data) = try await post(harness, body)
            let after = try await deadlineFallbacks(harness)
            if attempt == 4 || after == before { return (status, data) }
            attempt += 1
        }
    }

    @Test(arguments: TestBackend.selected)
    func aFullPriceAnnualSubscriberGetsTheOfferSignedForTheirSubscription(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: Self.settings) { harness in
            try await Self.approve(["annual-stay-40off", "switch-to-monthly", "what-you-lose"], in: harness)
            let (_, otid) = try await harness.subscribeFullPriceAnnual()
            let (body, request, status, data) = try await Self.ask(harness, otid: otid, locale: "de-AT")
            #expect(status == 200)
            let answer = try AppStoreJSON.decoder().decode(RealtimeResponseBody.self, from: data)
            guard case .promotionalOffer(let offer) = answer, case .v2(let jws) = offer.signature else {
                let (_, metrics) = try await harness.request(.GET, "/metrics")
                let causes = String(decoding: metrics, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("verdict_retention_realtime_total") }
                Issue.record("expected a promotional offer with a V2 signature, got \(String(decoding: data, as: UTF8.self)); \(causes)")
                return
            }
            #expect(offer.messageIdentifier == Self.text("annual-stay-40off", "de-DE").identifier)
            // The JWS verifies with the key Apple issued, and names the request's subscription.
            let parts = jws.split(separator: ".").map(String.init)
            try #require(parts.count == 3)
            let signatureBytes = try #require(Base64URL.decode(parts[2]))
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
            #expect(harness.store.issuedKey.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
            let claimBytes = try #require(Base64URL.decode(parts[1]))
            let claims = try #require(JSONValue.parse(claimBytes)?.objectValue)
            #expect(claims["transactionId"]?.stringValue == otid)
            #expect(claims["offerIdentifier"]?.stringValue == "lumen-annual-40off")
            #expect(claims["productId"]?.stringValue == "com.lumen.pro.annual")
            #expect(claims["aud"]?.stringValue == "promotional-offer")

            // Recorded with the other decisions, with its trigger and explanation.
            let (_, list) = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)")
            let decisions = list.jsonObject["decisions"]?.arrayValue ?? []
            let decision = try #require(decisions.compactMap(\.objectValue).first {
                $0["notificationUUID"]?.stringValue == request.requestIdentifier.uuidString.lowercased()
            })
            #expect(decision["trigger"]?.stringValue == "REALTIME_REQUEST")
            #expect(decision["notificationUUID"]?.stringValue == request.requestIdentifier.uuidString.lowercased())
            #expect(decision["ruleId"]?.stringValue == "cancel-page-annual-full-price")
            #expect(decision["offer"]?.objectValue?["id"]?.stringValue == "lumen-annual-40off")
            let record = try #require(decision["record"]?.objectValue)
            #expect(record["explanation"]?.stringValue?.contains("answer message annual-stay-40off (de-DE)") == true)

            // Apple retries with the same request identifier: the same decision, answered again.
            let (againStatus, again) = try await Self.ask(harness, body)
            #expect(againStatus == 200)
            guard case .promotionalOffer(let repeated) = try AppStoreJSON.decoder().decode(RealtimeResponseBody.self, from: again) else {
                Issue.record("the repeated request was not answered with the offer")
                return
            }
            #expect(repeated.messageIdentifier == offer.messageIdentifier)
            let (_, listAgain) = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)")
            #expect(listAgain.jsonObject["decisions"]?.arrayValue?.count == decisions.count, "the repeat stored nothing new")

            let (_, metrics) = try await harness.request(.GET, "/metrics")
            #expect(String(decoding: metrics, as: UTF8.self).contains(#"verdict_retention_realtime_total{result="offer",cause="answered",app="com.example.verdict"} 2"#))
        }
    }

    @Test(arguments: TestBackend.selected)
    func withoutApprovedMessagesAppleFallsBackAndTheDecisionSaysWhy(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: Self.settings) { harness in
            let (_, otid) = try await harness.subscribeFullPriceAnnual()
            let (_, request, status, data) = try await Self.ask(harness, otid: otid)
            #expect(status == 200)
            #expect(String(decoding: data, as: UTF8.self) == "{}")
            let (_, list) = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)")
            let decision = try #require(list.jsonObject["decisions"]?.arrayValue?.compactMap(\.objectValue).first {
                $0["notificationUUID"]?.stringValue == request.requestIdentifier.uuidString.lowercased()
            })
            #expect(decision["ruleId"] == nil || decision["ruleId"] == .null)
            let explanation = decision["record"]?.objectValue?["explanation"]?.stringValue ?? ""
            #expect(explanation.contains("message annual-stay-40off (en-US) is not approved by Apple"))
            #expect(explanation.contains("no answer: the App Store falls back"))
        }
    }

    @Test(arguments: TestBackend.selected)
    func anUnknownSubscriptionGetsTheApprovedDefaultMessage(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: Self.settings) { harness in
            // The default message shows a banner and bullet icons: approved text alone is not enough.
            try await Self.approve(["what-you-lose"], images: false, in: harness)
            let early = DecodedRealtimeRequestBody(
                originalTransactionId: "2999999999999998", appAppleId: 1_234_567_890, productId: "com.lumen.pro.annual",
                userLocale: "en-GB", requestIdentifier: UUID(), signedDate: harness.store.now, environment: .sandbox)
            let (_, before) = try await Self.post(harness, RealtimeRequestBody(signedPayload: try harness.store.signer.sign(early)))
            #expect(String(decoding: before, as: UTF8.self) == "{}", "a message whose images Apple has not approved is not shown")
            try await Self.approve(["what-you-lose"], in: harness)
            await harness.service.apps.first.approvedMessages.reload()
            // Signed by the App Store for a subscription Verdict never heard of.
            let request = DecodedRealtimeRequestBody(
                originalTransactionId: "2999999999999999", appAppleId: 1_234_567_890, productId: "com.lumen.pro.annual",
                userLocale: "en-GB", requestIdentifier: UUID(), signedDate: harness.store.now, environment: .sandbox)
            let body = RealtimeRequestBody(signedPayload: try harness.store.signer.sign(request))
            let (status, data) = try await Self.post(harness, body)
            #expect(status == 200)
            let answer = try AppStoreJSON.decoder().decode(RealtimeResponseBody.self, from: data)
            #expect(answer == .message(RetentionMessageReference(messageIdentifier: Self.text("what-you-lose", "en-US").identifier)))
            let (_, list) = try await harness.request(.GET, "/v1/decisions?originalTransactionId=2999999999999999")
            #expect(list.jsonObject["decisions"]?.arrayValue?.isEmpty == true)
            let (_, metrics) = try await harness.request(.GET, "/metrics")
            #expect(String(decoding: metrics, as: UTF8.self).contains(
                #"verdict_retention_realtime_total{result="default_message",cause="unknown_subscription",app="com.example.verdict"} 1"#))
        }
    }

    @Test(arguments: TestBackend.selected)
    func aRequestForAnotherAppIsNotAnswered(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: Self.settings) { harness in
            let (_, otid) = try await harness.subscribeFullPriceAnnual()
            let body = try await harness.store.realtimeRequest(originalTransactionId: otid, appAppleId: 42).body
            var request = HTTPClientRequest(url: harness.baseURL + "/v1/retention/realtime")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
            var answered: Int?
            do {
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
                answered = Int(response.status.code)
            } catch {
                // The connection was closed without a status line.
            }
            #expect(answered == nil, "answered \(answered ?? 0)")
            let (_, list) = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)")
            #expect(list.jsonObject["decisions"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test(arguments: TestBackend.selected)
    func bodiesThatAreNotSignedRequestsAreRefused(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: Self.settings) { harness in
            let (_, otid) = try await harness.subscribeFullPriceAnnual()
            let notification = try await harness.store.setAutoRenew(originalTransactionId: otid, enabled: true)
            // A signed notification is not a realtime request: it misses every field.
            let (status, data) = try await Self.post(harness, RealtimeRequestBody(signedPayload: notification.notification.signedPayload))
            #expect(status == 422)
            #expect(data.jsonObject["error"]?.objectValue?["code"]?.stringValue == "INVALID_PAYLOAD")
            let (badStatus, _) = try await harness.request(
                .POST, "/v1/retention/realtime", body: Data(#"{"signedPayload":"a.b.c"}"#.utf8), token: nil)
            #expect(badStatus == 422)
            let (missing, _) = try await harness.request(.POST, "/v1/retention/realtime", body: Data("{}".utf8), token: nil)
            #expect(missing == 400)
        }
    }
}
