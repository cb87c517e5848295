import AppStoreServer
import AppStoreSimulator
import Foundation
import NIOHTTP1
import Testing
import VerdictService
import VerdictTestSupport

/// Customers with different histories, built in the simulator and delivered over real HTTP, get
/// the offer the shipped rules say — decided from real price / currency / offerDiscountType /
/// refund history — with the rule and its line in the record.
@Suite struct OfferHistoryTests {
    enum History: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case jpyMonthlyLoyal, freeTrialOnly, payAsYouGo, recentRefunder, expiredWinBack
        var testDescription: String { rawValue }
    }

    /// What the shipped rules decide for a history.
    struct Expected {
        var rule: String?
        var offers: Set<String>
        var blockedBy: String?
        var type: String?
    }

    static func expected(_ history: History) -> Expected {
        switch history {
        case .jpyMonthlyLoyal:
            Expected(rule: "monthly-loyal-full-price", offers: ["lumen-monthly-3for1", "lumen-monthly-50off-3m"], type: "PROMOTIONAL")
        case .freeTrialOnly, .payAsYouGo:
            Expected(rule: "discount-only-customers", offers: ["lumen-pro-first-month-099"], type: "PROMOTIONAL")
        case .recentRefunder:
            Expected(rule: nil, offers: [], blockedBy: "no-offers-to-recent-refunders")
        case .expiredWinBack:
            // Apple lists 50off first; the rule allows both (2free first): Apple's order wins.
            Expected(rule: "winback-lapsed-payers", offers: ["lumen-winback-monthly-50off"], type: "WIN_BACK")
        }
    }

    /// Plays `history` in the simulator, each step processed before the next (as Apple's
    /// notifications arrive over days); returns the subscription and the deciding notification.
    static func play(_ history: History, _ harness: ServiceHarness) async throws -> (otid: String, uuid: String) {
        let store = harness.store
        let monthly = "com.lumen.pro.monthly"
        func subscribe(_ product: String, _ price: Int64, _ currency: String = "USD", offer: SimulatedOffer? = nil) async throws -> String {
            let result = try await harness.settled(store.subscribe(SubscribeRequest(productId: product, price: price, currency: currency, offer: offer)))
            return try #require(result.originalTransactionId)
        }
        func turnOff(_ otid: String) async throws -> (String, String) {
            (otid, try await harness.settled(store.setAutoRenew(originalTransactionId: otid, enabled: false)).notification.notificationUUID)
        }
        switch history {
        case .jpyMonthlyLoyal:
            let otid = try await subscribe(monthly, 1_200_000, "JPY")
            for _ in 0..<5 { try await harness.settled(store.renew(originalTransactionId: otid)) }
            return try await turnOff(otid)
        case .freeTrialOnly:
            return try await turnOff(try await subscribe(monthly, 7_990, offer: SimulatedOffer(
                type: .introductoryOffer, discountType: .freeTrial, price: 0)))
        case .payAsYouGo:
            return try await turnOff(try await subscribe(monthly, 7_990, offer: SimulatedOffer(
                type: .introductoryOffer, discountType: .payAsYouGo, price: 990)))
        case .recentRefunder:
            let otid = try await subscribe("com.lumen.pro.annual", 59_990)
            try await harness.settled(store.renew(originalTransactionId: otid))
            // Apple signs each change later than the last: the refunded transaction's newer
            // signedDate is what makes it replace the stored one.
            store.clock.advance(by: 60)
            try await harness.settled(store.grantRefund(transactionId: otid)) // the first year's payment
            store.clock.advance(by: 60)
            return try await turnOff(otid)
        case .expiredWinBack:
            let otid = try await subscribe(monthly, 7_990)
            try await harness.settled(store.renew(originalTransactionId: otid))
            store.clock.advance(by: 60)
            try await harness.settled(store.setAutoRenew(originalTransactionId: otid, enabled: false))
            store.clock.advance(by: 60)
            let expired = try await harness.settled(store.expire(
                originalTransactionId: otid, eligibleWinBackOfferIds: ["lumen-winback-monthly-50off", "lumen-winback-monthly-2free"]))
            return (otid, expired.notification.notificationUUID)
        }
    }

    @Test(arguments: TestBackend.selected, History.allCases)
    func eachHistoryGetsTheOfferTheShippedRulesSay(_ backend: TestBackend, _ history: History) async throws {
        try await ServiceHarness.with(backend) { harness in
            let (otid, uuid) = try await Self.play(history, harness)
            let expected = Self.expected(history)
            let body = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)").body.jsonObject
            let decision = try #require(body["decisions"]?.arrayValue?.compactMap(\.objectValue)
                .first { $0["notificationUUID"]?.stringValue == uuid })
            #expect(decision["heldOut"] == .bool(false))
            #expect(decision["ruleId"]?.stringValue == expected.rule)
            if let rule = expected.rule {
                #expect(decision["ruleLine"]?.integerValue == Int64(try OfferDecisionTests.line(ofRule: rule)))
            }
            let engine = decision["record"]?.objectValue?["decision"]?.objectValue
            #expect(engine?["blockedBy"]?.objectValue?["id"]?.stringValue == expected.blockedBy)
            let offer = decision["offer"]?.objectValue?["id"]?.stringValue
            if expected.offers.isEmpty {
                #expect(offer == nil)
            } else {
                #expect(offer.map(expected.offers.contains) == true, "offer \(offer ?? "none")")
            }
            let pending = try await harness.request(.GET, "/v1/subscriptions/\(otid)/offer").body.jsonObject
            let pendingOffer = pending["offer"]?.objectValue
            #expect(pendingOffer?["type"]?.stringValue == expected.type)
            if expected.type == "WIN_BACK" { #expect(pendingOffer?["signature"] == nil && pendingOffer?["jws"] == nil) }
            if expected.type == "PROMOTIONAL" { #expect(pendingOffer?["jws"]?.stringValue != nil) }
            // Pending for the rule's expiresAfter (2d), else the catalog's (none here: 7 days).
            if let decidedAt = decision["decidedAt"]?.integerValue, expected.type != nil {
                let days: Int64 = expected.rule == "discount-only-customers" ? 2 : 7
                #expect(decision["expiresAt"]?.integerValue == decidedAt + days * 86_400_000)
            }
        }
    }
}
