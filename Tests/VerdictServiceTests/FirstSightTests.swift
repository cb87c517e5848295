import AppStoreServer
import AppStoreSimulator
import Foundation
import NIOHTTP1
import Testing
import VerdictService
import VerdictTestSupport

/// Deployment day: the first notification Verdict sees of a customer with a long App Store
/// history is the one to decide on. The decision waits for Get Transaction History and is made on
/// the whole customer — every product, every refund — or, when the API stays down for the whole
/// wait, made after the bound and marked `historyComplete == false`.
@Suite(.serialized) struct FirstSightTests {
    /// What the simulator holds before Verdict hears of the customer.
    struct History {
        var otid: String
        var appTransactionId: String
        var packs: [String]
    }

    /// A monthly subscriber who paid 4 months, bought two credit packs and had both refunded —
    /// nothing of it delivered to Verdict.
    static func history(_ harness: ServiceHarness) async throws -> History {
        await harness.simulator.deliverer.setDeliveryURL(nil)
        let store = harness.store
        let subscribed = try await store.subscribe(SubscribeRequest(productId: "com.lumen.pro.monthly", price: 7_990, currency: "USD"))
        let otid = try #require(subscribed.originalTransactionId)
        let customer = try #require(subscribed.transaction?.appTransactionId)
        for _ in 0..<3 { _ = try await store.renew(originalTransactionId: otid) }
        var packs: [String] = []
        for _ in 0..<2 {
            store.clock.advance(by: 3_600)
            let bought = try await store.purchase(OneTimePurchaseRequest(
                productId: "com.lumen.credits.100", type: .consumable, price: 4_990, currency: "USD", appTransactionId: customer))
            packs.append(try #require(bought.transactionId))
        }
        for pack in packs {
            store.clock.advance(by: 3_600)
            _ = try await store.grantRefund(transactionId: pack)
        }
        store.clock.advance(by: 3_600)
        return History(otid: otid, appTransactionId: customer, packs: packs)
    }

    /// The decision record of `uuid` from `GET /v1/decisions`.
    static func decision(_ harness: ServiceHarness, otid: String, uuid: String) async throws -> [String: JSONValue] {
        let body = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)").body.jsonObject
        return try #require(body["decisions"]?.arrayValue?.compactMap(\.objectValue).first { $0["notificationUUID"]?.stringValue == uuid })
    }

    @Test(arguments: TestBackend.selected)
    func aFirstAutoRenewOffIsDecidedOnTheWholeHistory(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let history = try await Self.history(harness)
            let off = try await harness.store.setAutoRenew(originalTransactionId: history.otid, enabled: false)
            #expect(try await harness.deliver(off.notification.signedPayload).status == 200)
            _ = try await harness.waitUntilProcessed(off.notification.notificationUUID)
            let decision = try await Self.decision(harness, otid: history.otid, uuid: off.notification.notificationUUID)
            let record = try #require(decision["record"]?.objectValue)
            #expect(record["historyComplete"] == .bool(true))
            let facts = try #require(record["facts"]?.objectValue)
            #expect(facts["subscription"]?.objectValue?["paidPeriods"] == .integer(4))
            let customer = try #require(facts["customer"]?.objectValue)
            #expect(customer["historyComplete"] == .bool(true))
            #expect(customer["transactions"]?.arrayValue?.count == 6, "4 months and 2 packs")
            #expect(customer["refunds"]?.arrayValue?.count == 2)
            #expect(customer["lifetimeRefunded"]?.value(at: "USD.milliunits") == .integer(9_980))
            let metrics = String(decoding: try await harness.request(.GET, "/metrics").body, as: UTF8.self)
            #expect(metrics.contains(#"verdict_decisions_total{section="offers",history="complete",app="com.example.verdict"} 1"#))
        }
    }

    @Test(arguments: TestBackend.selected)
    func aFirstRefundRequestIsDecidedOnTheWholeHistory(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let history = try await Self.history(harness)
            let third = try await harness.store.purchase(OneTimePurchaseRequest(
                productId: "com.lumen.credits.100", type: .consumable, price: 4_990, currency: "USD",
                appTransactionId: history.appTransactionId))
            let pack = try #require(third.transactionId)
            harness.store.clock.advance(by: 600)
            let asked = try await harness.store.requestRefund(transactionId: pack, reason: .unintendedPurchase)
            #expect(try await harness.deliver(asked.notification.signedPayload).status == 200)
            _ = try await harness.waitUntilProcessed(asked.notification.notificationUUID)
            let request = try await harness.consumption(pack)
            let record = try #require(request["record"]?.objectValue)
            #expect(record["historyComplete"] == .bool(true))
            let customer = try #require(record["facts"]?.objectValue?["customer"]?.objectValue)
            #expect(customer["historyComplete"] == .bool(true))
            #expect(customer["refunds"]?.arrayValue?.count == 2, "the two earlier refunds only Apple's history shows")
            #expect(customer["transactions"]?.arrayValue?.count == 7)
        }
    }

    @Test(arguments: TestBackend.selected)
    func withTheAPIDownTheDecisionIsMadeAfterTheBoundOnWhatIsStored(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: ["VERDICT_HISTORY_WAIT": "2"]) { harness in
            let history = try await Self.history(harness)
            harness.simulator.faults.add(.serviceUnavailable(.getTransactionHistory, count: nil))
            let off = try await harness.store.setAutoRenew(originalTransactionId: history.otid, enabled: false)
            #expect(try await harness.deliver(off.notification.signedPayload).status == 200)
            let processed = try await harness.waitUntilProcessed(off.notification.notificationUUID)
            let decision = try await Self.decision(harness, otid: history.otid, uuid: off.notification.notificationUUID)
            let waited = (decision["decidedAt"]?.integerValue ?? 0) - (processed["receivedAt"]?.integerValue ?? 0)
            #expect(waited >= 2_000, "decided \(waited) ms after it arrived")
            let record = try #require(decision["record"]?.objectValue)
            #expect(record["historyComplete"] == .bool(false))
            let facts = try #require(record["facts"]?.objectValue)
            #expect(facts["customer"]?.objectValue?["historyComplete"] == .bool(false))
            #expect(facts["subscription"]?.objectValue?["paidPeriods"] == .integer(1), "only the notification's own transaction")
            #expect(facts["customer"]?.objectValue?["refunds"]?.arrayValue?.isEmpty == true)
            // Waiting used up no attempts.
            #expect(processed["attempts"]?.integerValue == 1)
            let metrics = String(decoding: try await harness.request(.GET, "/metrics").body, as: UTF8.self)
            #expect(metrics.contains(#"verdict_decisions_total{section="offers",history="incomplete",app="com.example.verdict"} 1"#))
        }
    }

    @Test func withoutAnInAppPurchaseKeyTheDecisionIsImmediateAndIncomplete() async throws {
        try await ServiceHarness.with(.sqlite, credentials: false) { harness in
            let history = try await Self.history(harness)
            let off = try await harness.store.setAutoRenew(originalTransactionId: history.otid, enabled: false)
            #expect(try await harness.deliver(off.notification.signedPayload).status == 200)
            _ = try await harness.waitUntilProcessed(off.notification.notificationUUID, timeout: .seconds(5))
            let decision = try await Self.decision(harness, otid: history.otid, uuid: off.notification.notificationUUID)
            #expect(decision["record"]?.objectValue?["historyComplete"] == .bool(false))
        }
    }
}
