import AppStoreServer
import Foundation
import RuleEngine
import Testing
import VerdictService

/// The facts document built from Apple's payloads: each derived field, Apple's values passed
/// through, unknown enumeration values left out, and the document typed and decided by the
/// shipped rule bundle exactly as its own test fixture is.
@Suite struct SubscriptionFactsTests {
    static let day: Int64 = 86_400_000

    static func date(_ text: String) -> Date {
        Date(appStoreMilliseconds: DecisionInstant.parse(text)!)
    }

    static func transaction(
        _ otid: String, _ product: String, price: Int64, currency: String = "USD", purchased: String, expires: String? = nil,
        offer: OfferType? = nil, offerId: String? = nil, discount: OfferDiscountType? = nil
    ) -> JWSTransactionDecodedPayload {
        var transaction = JWSTransactionDecodedPayload()
        transaction.originalTransactionId = otid
        transaction.transactionId = "\(otid)-\(purchased)"
        transaction.productId = product
        transaction.subscriptionGroupIdentifier = "21482345"
        transaction.price = price
        transaction.currency = currency
        transaction.storefront = "USA"
        transaction.purchaseDate = date(purchased)
        transaction.expiresDate = expires.map(date)
        transaction.offerType = offer
        transaction.offerIdentifier = offerId
        transaction.offerDiscountType = discount
        return transaction
    }

    /// The shipped fixture `annualFullPrice` as Apple would sign it: a monthly free trial, then
    /// the annual plan at full price, auto-renew turned off on 2026-12-15.
    static func annualFullPrice() -> SubscriptionFacts {
        let otid = "20000001001"
        var renewal = JWSRenewalInfoDecodedPayload()
        renewal.originalTransactionId = otid
        renewal.productId = "com.lumen.pro.annual"
        renewal.autoRenewStatus = .off
        renewal.renewalPrice = 59_990
        renewal.currency = "USD"
        renewal.isInBillingRetryPeriod = false
        return SubscriptionFacts(
            event: .init(type: .didChangeRenewalStatus, subtype: .autoRenewDisabled, environment: .production,
                         signedDate: date("2026-12-15T12:00:00Z")),
            originalTransactionId: otid,
            transactions: [
                transaction(otid, "com.lumen.pro.annual", price: 59_990, purchased: "2025-12-01", expires: "2026-12-01"),
                transaction(otid, "com.lumen.pro.monthly", price: 0, purchased: "2025-11-24", expires: "2025-12-01",
                            offer: .introductoryOffer, discount: .freeTrial),
            ],
            renewalInfo: renewal
        )
    }

    @Test func derivedSubscriptionFields() throws {
        let facts = Self.annualFullPrice()
        let subscription = try #require(facts.document.objectValue?["subscription"]?.objectValue)
        #expect(subscription["productId"]?.stringValue == "com.lumen.pro.annual")
        #expect(subscription["group"]?.stringValue == "21482345")
        #expect(subscription["price"] == .object(["milliunits": .integer(59_990), "currency": .string("USD")]))
        #expect(subscription["autoRenewStatus"] == .integer(0))
        #expect(subscription["paidPeriods"]?.integerValue == 1)
        // The trial ran into the annual period without a gap: tenure counts from the trial.
        let start = Self.date("2025-11-24").appStoreMilliseconds
        #expect(subscription["recentSubscriptionStartDate"]?.integerValue == start)
        #expect(subscription["tenure"]?.integerValue == Self.date("2026-12-15T12:00:00Z").appStoreMilliseconds - start)
        #expect(subscription["offerType"] == nil)
        let event = try #require(facts.document.objectValue?["event"]?.objectValue)
        #expect(event["type"]?.stringValue == "DID_CHANGE_RENEWAL_STATUS")
        #expect(event["subtype"]?.stringValue == "AUTO_RENEW_DISABLED")
        #expect(event["environment"]?.stringValue == "Production")
        let customer = try #require(facts.document.objectValue?["customer"]?.objectValue)
        let transactions = customer["transactions"]?.arrayValue ?? []
        #expect(transactions.first?.objectValue?["productId"]?.stringValue == "com.lumen.pro.annual") // newest first
        #expect(customer["offersRedeemed"]?.arrayValue?.count == 1)
        #expect(customer["refunds"]?.arrayValue == [])
        #expect(customer["attributes"] == .object([:]))
    }

    @Test func aGapRestartsTenureAndRenewalInfoWins() throws {
        let otid = "7"
        var facts = SubscriptionFacts(
            event: .init(type: .expired, subtype: .voluntary, environment: .sandbox, signedDate: Self.date("2026-06-01")),
            originalTransactionId: otid,
            transactions: [
                Self.transaction(otid, "m", price: 7_990, purchased: "2026-01-01", expires: "2026-02-01"),
                Self.transaction(otid, "m", price: 7_990, purchased: "2026-03-10", expires: "2026-04-10"),
                Self.transaction(otid, "m", price: 7_990, purchased: "2026-04-10", expires: "2026-05-10"),
                Self.transaction("other", "m", price: 7_990, purchased: "2026-05-20"),
            ],
            renewalInfo: nil
        )
        var subscription = try #require(facts.document.objectValue?["subscription"]?.objectValue)
        #expect(subscription["recentSubscriptionStartDate"]?.integerValue == Self.date("2026-03-10").appStoreMilliseconds)
        #expect(subscription["paidPeriods"]?.integerValue == 3)
        #expect(subscription["isInBillingRetry"] == .bool(false))
        #expect(subscription["eligibleWinBackOfferIds"] == .array([]))

        var renewal = JWSRenewalInfoDecodedPayload()
        renewal.recentSubscriptionStartDate = Self.date("2026-01-01")
        renewal.eligibleWinBackOfferIds = ["b", "a"]
        renewal.expirationIntent = .customerCancelled
        facts.renewalInfo = renewal
        subscription = try #require(facts.document.objectValue?["subscription"]?.objectValue)
        #expect(subscription["recentSubscriptionStartDate"]?.integerValue == Self.date("2026-01-01").appStoreMilliseconds)
        #expect(subscription["eligibleWinBackOfferIds"] == .array([.string("b"), .string("a")]))
        #expect(subscription["expirationIntent"] == .integer(1))
    }

    @Test func refundsRedemptionsAndUnknownValues() throws {
        let otid = "9"
        var refunded = Self.transaction(otid, "m", price: 7_990, purchased: "2026-01-01")
        refunded.revocationDate = Self.date("2026-01-05")
        refunded.revocationType = .refundProrated
        var legacyRefund = Self.transaction(otid, "m", price: 7_990, purchased: "2026-02-01")
        legacyRefund.revocationDate = Self.date("2026-02-03") // no revocationType: an older payload
        var family = Self.transaction(otid, "m", price: 7_990, purchased: "2026-03-01")
        family.revocationDate = Self.date("2026-03-02")
        family.revocationType = .familyRevoke
        var future = Self.transaction(otid, "m", price: 3_990, purchased: "2026-04-01",
                                      offer: OfferType(rawValue: 9), offerId: "x", discount: OfferDiscountType(rawValue: "NEW_KIND"))
        future.revocationType = nil
        let promo = Self.transaction(otid, "m", price: 3_990, purchased: "2026-05-01",
                                     offer: .promotionalOffer, offerId: "promo-1", discount: .payAsYouGo)
        var renewal = JWSRenewalInfoDecodedPayload()
        renewal.autoRenewStatus = AutoRenewStatus(rawValue: 7)
        let facts = SubscriptionFacts(
            event: .init(type: .didChangeRenewalStatus, subtype: nil, environment: nil, signedDate: Self.date("2026-06-01")),
            originalTransactionId: otid, transactions: [refunded, legacyRefund, family, future, promo], renewalInfo: renewal,
            attributes: .object(["exportsLast30Days": .integer(3)])
        )
        let document = try #require(facts.document.objectValue)
        let customer = try #require(document["customer"]?.objectValue)
        let refunds = customer["refunds"]?.arrayValue ?? []
        #expect(refunds.map { $0.objectValue?["revocationType"]?.stringValue } == ["REFUND_FULL", "REFUND_PRORATED"])
        let redemptions = customer["offersRedeemed"]?.arrayValue ?? []
        #expect(redemptions.count == 1)
        #expect(redemptions.first?.objectValue?["offerIdentifier"]?.stringValue == "promo-1")
        #expect(redemptions.first?.objectValue?["offerType"] == .integer(2))
        // A newer offer type and discount type than this code knows are left out; the identifier stays.
        let unknown = try #require((customer["transactions"]?.arrayValue ?? []).first { $0.objectValue?["offerIdentifier"] == .string("x") }?.objectValue)
        #expect(unknown["offerType"] == nil && unknown["offerDiscountType"] == nil)
        #expect(customer["attributes"] == .object(["exportsLast30Days": .integer(3)]))
        let subscription = try #require(document["subscription"]?.objectValue)
        #expect(subscription["autoRenewStatus"] == nil)
        #expect(subscription["paidPeriods"]?.integerValue == 2) // refunded periods are not paid
        #expect(document["event"]?.objectValue?["subtype"]?.stringValue == "NONE")
        #expect(document["event"]?.objectValue?["environment"] == nil)
    }

    @Test func theShippedRulesDecideTheBuiltFactsLikeTheirOwnFixture() throws {
        let bundle = try RuleBundle.load(directory: ServiceHarness.rulesDirectory)
        let data = try JSONEncoder().encode(Self.annualFullPrice().document)
        let facts = try Facts(json: data, schema: bundle.schema)
        let decision = bundle.decide(facts)
        #expect(decision.errors.isEmpty, "\(decision.errors)")
        #expect(decision.offer?.id == "lumen-annual-40off")
        #expect(decision.rule?.id == "annual-full-price-payer")
        #expect(decision.heldOut == false)
    }
}
