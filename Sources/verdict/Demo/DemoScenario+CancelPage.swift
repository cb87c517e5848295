import AppStoreServer
import AppStoreSimulator
import Foundation
import RuleEngine
import VerdictService

/// The cancel-page case: the setup a developer does once (upload the messages of
/// `messages.yaml` for Apple's review, point the realtime URL at Verdict), then a subscriber who
/// opens their subscription in the App Store's settings. The simulated App Store signs the
/// realtime request and posts it to Verdict, which answers within its deadline; the case shows
/// the answer as Apple would display it, the rule and why, and how long Verdict took.
extension DemoScenario {
    /// Sets up Retention Messaging on the simulator through the App Store Server API, then plays
    /// (i) — again with a new customer while the customer lands in the holdout (at most five).
    func playCancelPage(service: VerdictServer) async throws -> [DemoCaseResult] {
        guard let context = service.apps.app(bundleId: app.bundleId), let bundle = context.rules.current else {
            throw DemoError("the rule bundle of \(app.label) did not load")
        }
        let apple = try context.appStore.client(for: .sandbox)
        let report = try await RetentionMessageSync(
            client: apple, repository: context.repository, messages: bundle.messages,
            imagesDirectory: context.configuration.rulesDirectory)
            .run(upload: true)
        let realtimeURL = client.serviceURL + "/v1/retention/realtime"
        try await apple.setRealtimeURL(realtimeURL)
        output.header("Setup (once, with \(app.name)'s In-App Purchase key)")
        let images = report.messages.filter { $0.messageId.hasPrefix("image ") }.count
        output.field("messages", "verdict appstore messages sync → \(report.messages.count - images) texts and \(images) images "
            + "of messages.yaml uploaded;\nthe sandbox approves them at once (production: Apple reviews them)")
        output.field("realtime URL", "verdict appstore realtime-url set \(realtimeURL)")

        var results: [DemoCaseResult] = []
        for _ in 0..<5 {
            let otid = try await subscribe(SubscribeRequest(productId: Product.annual, price: 59_990, currency: "USD", period: .oneYear))
            let result = try await viewSubscription(otid, locale: "de-DE", messages: bundle.messages)
            results.append(result)
            minuteLater()
            guard result.heldOut == true else { break }
        }
        return results
    }

    /// The subscriber `otid` opens their subscription in the App Store's settings; prints what
    /// Verdict answered and why.
    private func viewSubscription(_ otid: String, locale: String, messages: RetentionMessages) async throws -> DemoCaseResult {
        let call = try await client.simulator(
            .POST, "/simulator/scenarios/view-subscription", json: #"{"originalTransactionId":"\#(otid)","userLocale":"\#(locale)"}"#)
        let list = try await client.service(.GET, "/v1/decisions?originalTransactionId=\(otid)")["decisions"]?
            .arrayValue?.compactMap(\.objectValue) ?? []
        let decision = list.first { $0.string("notificationUUID") == call.string("requestIdentifier") }
        var result = DemoCaseResult(
            name: "cancel-page", title: "(i) Annual subscriber who paid full price opens the cancel page", kind: .realtime,
            productId: Product.annual, originalTransactionId: otid,
            transactionId: await store.latestTransaction(originalTransactionId: otid)?.transactionId ?? otid)
        result.decisionId = decision?.string("id")
        result.ruleId = decision?.string("ruleId")
        result.offerId = decision?.string("offer.id")
        result.heldOut = decision?["heldOut"]?.boolValue
        if result.heldOut == true {
            result.name += "-held-out"
            result.title += " — held out (the 5% control group)"
        }
        caseHeader(result.title)
        output.field("customer", "\(Product.annual) · \(DemoFormat.money(59_990, "USD")) a year · 1 payment at full price")
        output.field("what happened", "opened the subscription in the App Store's settings (locale \(locale)):\n"
            + "the App Store posted a signed realtime request to Verdict")
        output.field("rule", Self.ruleText(result.ruleId, line: decision?["ruleLine"]?.integerValue,
                                           blockedBy: decision?.string("record.decision.blockedBy.id"),
                                           otherwise: result.heldOut == true ? "none — held out" : "none matched"))
        let answer = call["answer"]?.objectValue ?? [:]
        result.signed = answer["promotionalOffer"]?.objectValue?["promotionalOfferSignatureV2"]?.stringValue != nil
        output.field("Apple shows", Self.shown(answer, messages: messages))
        output.field("answered in", "\(call["milliseconds"]?.integerValue ?? 0) ms, status \(call["status"]?.integerValue ?? 0)"
            + "  (Apple waits about 700 ms, then falls back)")
        explain(decision?.string("record.explanation"))
        return result
    }

    /// The answer as the App Store displays it: the message's text, and the offer or plan with it.
    static func shown(_ answer: [String: JSONValue], messages: RetentionMessages) -> String {
        let option = ["promotionalOffer", "alternateProduct", "message"].first { answer[$0] != nil }
        guard let option, let body = answer[option]?.objectValue else {
            return "its fallback ({}): the App Store Connect retention message, then the default message"
        }
        let identifier = body["messageIdentifier"]?.stringValue.flatMap(UUID.init(uuidString:))
        let text = messages.messages.lazy.flatMap(\.locales).first { $0.identifier == identifier }
        var lines = text.map { ["“\($0.header)”  (message \($0.locale))", $0.body] } ?? ["message \(identifier?.uuidString ?? "?")"]
        if let jws = body["promotionalOfferSignatureV2"]?.stringValue {
            lines.append("with a promotional offer, signed by Verdict (V2 JWS, transactionId = this subscription):")
            lines.append("  " + DemoFormat.shortened(jws))
        }
        if let product = body["productId"]?.stringValue { lines.append("suggesting \(product) instead") }
        return lines.joined(separator: "\n")
    }
}
