import AppStoreServer
import AppStoreSimulator
import Crypto
import Foundation
import Testing
import VerdictTestSupport

/// Two apps share one deployment end to end — one service on each database, and two `verdict serve`
/// processes on one PostgreSQL: each app's notifications, delivered to `/v1/notifications`, are
/// decided by its own rules; its offers are signed with its own key (and do not verify with the
/// other's); its webhooks reach its own URL; its offer caps are counted on their own, also when
/// decisions race on both instances; and neither app's token sees the other's data.
@Suite(.serialized) struct TwoAppServiceTests {
    typealias Harness = TwoAppServiceHarness

    /// A full-price annual subscriber of `app` who turns auto-renew off; returns the subscription.
    static func annualSubscriberLeaves(_ harness: Harness, _ app: String) async throws -> String {
        let bought = try await harness.settled(app) {
            try await $0.subscribe(SubscribeRequest(productId: "com.lumen.pro.annual", price: 59_990, currency: "USD"))
        }
        let otid = try #require(bought.originalTransactionId)
        try await harness.settled(app) { try await $0.setAutoRenew(originalTransactionId: otid, enabled: false) }
        return otid
    }

    /// The subscription's newest decision, through `app`'s token.
    static func decision(_ harness: Harness, _ app: String, _ otid: String) async throws -> [String: JSONValue] {
        let (status, body) = try await harness.request(.GET, "/v1/subscriptions/\(otid)/decisions", as: app)
        #expect(status == 200)
        return try #require(body.jsonObject["decisions"]?.arrayValue?.first?.objectValue)
    }

    @Test(arguments: Harness.setups)
    func eachAppIsDecidedByItsOwnRulesAndSignedWithItsOwnKey(_ backend: TestBackend, _ deployment: Harness.Deployment) async throws {
        try await Harness.with(backend, deployment) { harness in
            let otidA = try await Self.annualSubscriberLeaves(harness, Harness.a)
            let otidB = try await Self.annualSubscriberLeaves(harness, Harness.b)
            let decisionA = try await Self.decision(harness, Harness.a, otidA)
            let decisionB = try await Self.decision(harness, Harness.b, otidB)
            #expect(decisionA["ruleId"]?.stringValue == "annual-full-price-payer")
            #expect(decisionB["ruleId"]?.stringValue == "annual-full-price-payer-b")
            #expect(decisionA["bundleHash"] != decisionB["bundleHash"])

            // Each offer is signed with its app's key and bundle id, and only with them.
            let keys = Dictionary(uniqueKeysWithValues: try [Harness.a, Harness.b].map {
                ($0, try #require(harness.stores[$0]).issuedKey.privateKey.publicKey)
            })
            for (app, otid, other) in [(Harness.a, otidA, Harness.b), (Harness.b, otidB, Harness.a)] {
                let (status, body) = try await harness.request(.GET, "/v1/subscriptions/\(otid)/offer", as: app)
                #expect(status == 200)
                let offer = try #require(body.jsonObject["offer"]?.objectValue)
                let signature = try JSONDecoder().decode(
                    PromotionalOfferSignature.self, from: JSONEncoder().encode(try #require(offer["signature"])))
                #expect(signature.keyIdentifier == harness.stores[app]?.issuedKey.keyId)
                let productId = try #require(offer["productId"]?.stringValue), offerId = try #require(offer["offerId"]?.stringValue)
                #expect(throws: Never.self) {
                    try PromotionalOfferSignatureVerifier(publicKey: keys[app]!, bundleId: app)
                        .verify(signature, productId: productId, offerId: offerId, appAccountToken: "")
                }
                #expect(throws: SignatureError.self) {
                    try PromotionalOfferSignatureVerifier(publicKey: keys[other]!, bundleId: other)
                        .verify(signature, productId: productId, offerId: offerId, appAccountToken: "")
                }
                // The other app's token knows nothing of this subscription.
                let (otherStatus, otherBody) = try await harness.request(.GET, "/v1/subscriptions/\(otid)/decisions", as: other)
                #expect(otherStatus == 200)
                #expect(otherBody.jsonObject["decisions"]?.arrayValue?.isEmpty == true)
            }

            // Each app's offer.targeted event reaches its own webhook (delivered by a job of its
            // own, after the decision), and never the other app's.
            let events = [(Harness.a, otidA, otidB), (Harness.b, otidB, otidA)]
            for (app, otid, _) in events {
                let receiver = try #require(harness.webhooks[app])
                let deadline = ContinuousClock.now + .seconds(30)
                while !receiver.deliveries.contains(where: { $0.body.contains(otid) }), ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(receiver.deliveries.contains { $0.body.contains(otid) }, "\(app)")
            }
            for (app, _, other) in events {
                let deliveries = try #require(harness.webhooks[app]).deliveries
                #expect(deliveries.allSatisfy { !$0.body.contains(other) && $0.app == app }, "\(app)")
            }
        }
    }

    @Test(arguments: Harness.setups)
    func eachAppsOfferCapsAreCountedOnTheirOwnWhenDecisionsRace(_ backend: TestBackend, _ deployment: Harness.Deployment) async throws {
        try await Harness.with(backend, deployment) { harness in
            // Both apps cap lumen-annual-40off at one grant in 30 days. Six subscribers of each app
            // ask at once (on both instances, with two): each app grants it exactly once.
            var subscriptions: [(app: String, otid: String)] = []
            for app in [Harness.a, Harness.b] {
                for _ in 0..<6 {
                    let bought = try await harness.settled(app) {
                        try await $0.subscribe(SubscribeRequest(productId: "com.lumen.pro.annual", price: 59_990, currency: "USD"))
                    }
                    subscriptions.append((app, try #require(bought.originalTransactionId)))
                }
            }
            let offers = try await withThrowingTaskGroup(of: (String, String?).self) { group in
                for (index, subscription) in subscriptions.enumerated() {
                    group.addTask {
                        let body = Data(#"{"originalTransactionId":"\#(subscription.otid)","trigger":"IN_APP"}"#.utf8)
                        let (status, answer) = try await harness.request(
                            .POST, "/v1/offers/decide", as: subscription.app, body: body, instance: index)
                        #expect(status == 200, "\(String(decoding: answer, as: UTF8.self))")
                        return (subscription.app, answer.jsonObject[path: "offer.offerId"]?.stringValue)
                    }
                }
                return try await group.reduce(into: [String: [String?]]()) { $0[$1.0, default: []].append($1.1) }
            }
            for app in [Harness.a, Harness.b] {
                #expect(offers[app]?.count == 6)
                #expect(offers[app]?.filter { $0 == "lumen-annual-40off" }.count == 1, "\(app): \(offers[app] ?? [])")
            }
        }
    }
}
