import AppStoreServer
import AppStoreSimulator
import Foundation
import RuleEngine
import Testing
import VerdictService
import VerdictTestSupport

/// Subscribers with different histories open the App Store's cancel page, through the simulator,
/// on both databases: each gets what the shipped `retention:` rules say — a plan switch for an
/// annual subscriber who paid less, the plain message (with its banner and bullet icons) for a
/// monthly one, the next rule once the offer's cap is used, the default message when held out —
/// and a tampered request gets an error and leaves no decision.
@Suite struct RetentionAnswersTests {
    static func answer(_ data: Data) throws -> RealtimeResponseBody {
        try AppStoreJSON.decoder().decode(RealtimeResponseBody.self, from: data)
    }

    static func decisions(_ harness: ServiceHarness, _ otid: String) async throws -> [[String: JSONValue]] {
        let (_, list) = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)")
        return list.jsonObject["decisions"]?.arrayValue?.compactMap(\.objectValue) ?? []
    }

    static func subscribe(_ harness: ServiceHarness, productId: String, price: Int64) async throws -> String {
        let bought = try await harness.settled(harness.store.subscribe(SubscribeRequest(productId: productId, price: price, currency: "USD")))
        return try #require(bought.originalTransactionId)
    }

    @Test(arguments: TestBackend.selected)
    func eachHistoryGetsTheAnswerTheRulesGive(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: RetentionRealtimeTests.settings) { harness in
            try await RetentionRealtimeTests.approve(["annual-stay-40off", "switch-to-monthly", "what-you-lose"], in: harness)
            let switchText = RetentionRealtimeTests.text("switch-to-monthly", "en-US").identifier
            let plainText = RetentionRealtimeTests.text("what-you-lose", "en-US").identifier

            // An annual subscriber who paid less than full price is offered the monthly plan.
            let discounted = try await Self.subscribe(harness, productId: "com.lumen.pro.annual", price: 39_990)
            let (_, _, _, switchData) = try await RetentionRealtimeTests.ask(harness, otid: discounted)
            #expect(try Self.answer(switchData) == .alternateProduct(AlternateProduct(
                messageIdentifier: switchText, productId: "com.lumen.pro.monthly", billingPlanType: nil)))

            // A monthly subscriber gets the plain message, banner and bullet icons approved with it.
            let monthly = try await Self.subscribe(harness, productId: "com.lumen.pro.monthly", price: 7_990)
            let (_, _, _, plainData) = try await RetentionRealtimeTests.ask(harness, otid: monthly)
            #expect(try Self.answer(plainData) == .message(RetentionMessageReference(messageIdentifier: plainText)))
            #expect(try await Self.decisions(harness, monthly).first?["ruleId"]?.stringValue == "cancel-page-what-you-lose")

            // A full-price annual subscriber gets the offer once; the cap (one offer per 180 days)
            // then skips that rule and the next one answers.
            let (_, fullPrice) = try await harness.subscribeFullPriceAnnual()
            var first = try Self.answer(try await RetentionRealtimeTests.ask(harness, otid: fullPrice).answer)
            if try await Self.decisions(harness, fullPrice).first?["heldOut"]?.boolValue == true {
                // In the 5 % holdout: its own case below; take the next subscriber.
                let (_, other) = try await harness.subscribeFullPriceAnnual()
                first = try Self.answer(try await RetentionRealtimeTests.ask(harness, otid: other).answer)
                try await Self.expectCapped(harness, other, first: first, switchText: switchText)
            } else {
                try await Self.expectCapped(harness, fullPrice, first: first, switchText: switchText)
            }

            // A held-out subscriber gets the product's default message, and the record says why.
            var heldOut: String?
            for _ in 0..<150 where heldOut == nil {
                let otid = try await Self.subscribe(harness, productId: "com.lumen.pro.monthly", price: 7_990)
                let (_, _, _, data) = try await RetentionRealtimeTests.ask(harness, otid: otid)
                guard try await Self.decisions(harness, otid).first?["heldOut"]?.boolValue == true else { continue }
                heldOut = otid
                #expect(try Self.answer(data) == .message(RetentionMessageReference(messageIdentifier: plainText)))
            }
            #expect(heldOut != nil, "one subscriber in 20 is held out: 150 without one is not chance")

            // A request whose payload was changed after Apple signed it: an error, and no decision.
            let victim = try await Self.subscribe(harness, productId: "com.lumen.pro.monthly", price: 7_990)
            let (body, request) = try await harness.store.realtimeRequest(originalTransactionId: victim, userLocale: "en-US")
            var parts = body.signedPayload.split(separator: ".").map(String.init)
            let payload = try #require(Base64URL.decode(parts[1]))
            let changed = String(decoding: payload, as: UTF8.self).replacingOccurrences(of: "en-US", with: "de-DE")
            parts[1] = Base64URL.encode(Data(changed.utf8))
            let (status, error) = try await RetentionRealtimeTests.post(harness, RealtimeRequestBody(signedPayload: parts.joined(separator: ".")))
            #expect(status == 422)
            #expect(error.jsonObject["error"]?.objectValue?["code"]?.stringValue != nil)
            #expect(try await Self.decisions(harness, victim).allSatisfy {
                $0["notificationUUID"]?.stringValue != request.requestIdentifier.uuidString.lowercased()
            })
        }
    }

    /// `first` was the offer; a second visit (a new request) is capped and answered by the next rule.
    static func expectCapped(_ harness: ServiceHarness, _ otid: String, first: RealtimeResponseBody, switchText: UUID) async throws {
        guard case .promotionalOffer = first else {
            Issue.record("the first visit was not answered with the offer: \(first)")
            return
        }
        let second = try Self.answer(try await RetentionRealtimeTests.ask(harness, otid: otid).answer)
        #expect(second == .alternateProduct(AlternateProduct(
            messageIdentifier: switchText, productId: "com.lumen.pro.monthly", billingPlanType: nil)))
        let newest = try await Self.decisions(harness, otid).first
        #expect(newest?["ruleId"]?.stringValue == "cancel-page-annual-to-monthly")
        #expect(newest?["record"]?.objectValue?["explanation"]?.stringValue?.contains("perCustomer: 1/1") == true)
    }
}
