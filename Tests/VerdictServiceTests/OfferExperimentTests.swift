import AppStoreServer
import AppStoreSimulator
import Foundation
import NIOHTTP1
import Testing
import VerdictService
import VerdictTestSupport

/// The shipped bundle's experiments in the running service: the 5% holdout (recorded with the
/// offer it would have made, nothing pending) and the shadow rule (recorded, never acted on).
@Suite struct OfferExperimentTests {
    @Test(arguments: TestBackend.selected)
    func aHeldOutSubscriberIsRecordedWithTheOfferTheyWouldHaveGot(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            // Subscribers turn auto-renew off one after another until one falls in the holdout
            // (the simulator's ids are deterministic, so this is the same one every run).
            var heldOut: (otid: String, decision: [String: JSONValue])?
            for _ in 0..<120 where heldOut == nil {
                let (_, otid) = try await harness.subscribeFullPriceAnnual()
                let off = try await harness.store.setAutoRenew(originalTransactionId: otid, enabled: false)
                _ = try await harness.waitUntilProcessed(off.notification.notificationUUID)
                let body = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)").body.jsonObject
                let decision = try #require(body["decisions"]?.arrayValue?.first?.objectValue)
                if decision["heldOut"] == .bool(true) { heldOut = (otid, decision) }
            }
            let (otid, decision) = try #require(heldOut)
            #expect(decision["offer"]?.objectValue?["id"]?.stringValue == "lumen-annual-40off")
            #expect(decision["ruleId"]?.stringValue == "annual-full-price-payer")
            #expect(decision["expiresAt"] == nil)
            let engine = try #require(decision["record"]?.objectValue?["decision"]?.objectValue)
            let holdout = (engine["buckets"]?.arrayValue ?? []).compactMap(\.objectValue).first { $0["purpose"] == .string("holdout") }
            #expect(holdout?["unit"]?.stringValue == otid)
            #expect((holdout?["bucket"]?.integerValue ?? 10_000) < (holdout?["threshold"]?.integerValue ?? 0))
            #expect(engine["counterfactual"]?.objectValue?["id"]?.stringValue == "lumen-annual-40off")
            #expect(try await harness.request(.GET, "/v1/subscriptions/\(otid)/offer").body.jsonObject == ["offer": .null])

            // The held-out customer stays anyway: the outcome is recorded for the holdout side.
            harness.store.clock.advance(by: 60)
            let back = try await harness.store.setAutoRenew(originalTransactionId: otid, enabled: true)
            _ = try await harness.waitUntilProcessed(back.notification.notificationUUID)
            let id = try #require(decision["id"]?.stringValue)
            #expect(try await harness.request(.GET, "/v1/decisions/\(id)").body.jsonObject["outcome"] == .string("retained"))
            let stats = try await harness.request(.GET, "/v1/rules/stats").body.jsonObject
            #expect(stats["attributionWindowDays"] == .integer(30))
            let rule = try #require(stats["rules"]?.arrayValue?.compactMap(\.objectValue)
                .first { $0["ruleId"] == .string("annual-full-price-payer") })
            #expect(rule["heldOut"] == .integer(1))
            #expect(rule["convertedHoldout"] == .integer(1))
            #expect(rule["conversionHoldout"]?.integerValue == 1)
            #expect((rule["offersMade"]?.integerValue ?? 0) >= 1)
        }
    }

    @Test(arguments: TestBackend.selected)
    func aRedeemedOfferClosesTheLoop(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let (_, otid) = try await harness.subscribeFullPriceAnnual()
            harness.store.clock.advance(by: 60)
            let off = try await harness.store.setAutoRenew(originalTransactionId: otid, enabled: false)
            _ = try await harness.waitUntilProcessed(off.notification.notificationUUID)
            harness.store.clock.advance(by: 60)
            let redeemed = try await harness.store.redeemOffer(originalTransactionId: otid, offer: SimulatedOffer(
                type: .promotionalOffer, discountType: .payUpFront, identifier: "lumen-annual-40off", price: 35_990))
            _ = try await harness.waitUntilProcessed(redeemed.notification.notificationUUID)
            let body = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)").body.jsonObject
            let decision = try #require(body["decisions"]?.arrayValue?.compactMap(\.objectValue)
                .first { $0["notificationUUID"]?.stringValue == off.notification.notificationUUID })
            #expect(decision["outcome"] == .string("redeemed"))
            #expect((decision["outcomeAt"]?.integerValue ?? 0) >= (decision["decidedAt"]?.integerValue ?? .max))
            let stats = try await harness.request(.GET, "/v1/rules/stats").body.jsonObject
            let rule = try #require(stats["rules"]?.arrayValue?.compactMap(\.objectValue)
                .first { $0["ruleId"] == .string("annual-full-price-payer") })
            #expect(rule["offersMade"] == .integer(1) && rule["redeemed"] == .integer(1))
            #expect(rule["conversionTreatment"]?.integerValue == 1)
            #expect(rule["conversionHoldout"] == nil)
            // The renewal at the offer's price, a year later, is the decision's net revenue (in the
            // subscription's currency); its refund takes it back.
            let id = try #require(decision["id"]?.stringValue)
            #expect(try await harness.service.apps.first.repository.offerDecision(id: id)?.revenue == 0, "nothing paid yet")
            let renewal = try await harness.settled(harness.store.renew(originalTransactionId: otid))
            let stored = try #require(try await harness.service.apps.first.repository.offerDecision(id: id))
            #expect(stored.currency == "USD" && stored.revenue == 35_990)
            let renewed = try #require(renewal.transactionId)
            _ = try await harness.settled(harness.store.grantRefund(transactionId: renewed))
            #expect(try await harness.service.apps.first.repository.offerDecision(id: id)?.revenue == 0)
            _ = try await harness.settled(harness.store.reverseRefund(transactionId: renewed))
            #expect(try await harness.service.apps.first.repository.offerDecision(id: id)?.revenue == 35_990)
        }
    }

    @Test(arguments: TestBackend.selected)
    func theShadowRuleIsRecordedAndTheLiveRuleDecides(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let token = UUID()
            let bought = try await harness.store.subscribe(SubscribeRequest(
                productId: "com.lumen.pro.monthly", price: 7_990, currency: "USD", appAccountToken: token))
            let otid = try #require(bought.originalTransactionId)
            // Each renewal processed before the next step, as when they arrive month by month.
            for _ in 0..<12 { try await harness.settled(harness.store.renew(originalTransactionId: otid)) }
            #expect(try await harness.request(
                .PUT, "/v1/customers/\(token.uuidString)/attributes", body: Data(#"{"exportsLast30Days": 31}"#.utf8)).status == 200)
            // A year and a few days later (tenure ≥ 365 days), the subscriber turns auto-renew off.
            harness.store.clock.advance(by: 370 * 86_400)
            let off = try await harness.store.setAutoRenew(originalTransactionId: otid, enabled: false)
            _ = try await harness.waitUntilProcessed(off.notification.notificationUUID)
            let body = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)").body.jsonObject
            let decision = try #require(body["decisions"]?.arrayValue?.compactMap(\.objectValue)
                .first { $0["notificationUUID"]?.stringValue == off.notification.notificationUUID })
            #expect(decision["ruleId"]?.stringValue == "monthly-loyal-full-price")
            let offer = decision["offer"]?.objectValue?["id"]?.stringValue
            #expect(offer == "lumen-monthly-3for1" || offer == "lumen-monthly-50off-3m")
            let engine = try #require(decision["record"]?.objectValue?["decision"]?.objectValue)
            let shadows = (engine["shadowMatches"]?.arrayValue ?? []).compactMap(\.objectValue)
            #expect(shadows.first?["rule"]?.objectValue?["id"]?.stringValue == "monthly-power-user-free-month")
            #expect(shadows.first?["offer"]?.objectValue?["id"]?.stringValue == "lumen-pro-month-free")
            let facts = decision["record"]?.objectValue?["facts"]?.objectValue?["customer"]?.objectValue
            #expect(facts?["attributes"] == .object(["exportsLast30Days": .integer(31)]))
        }
    }
}
