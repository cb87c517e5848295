import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictService
import VerdictTestSupport

/// One refund request per shipped refund rule (and the consent veto), each built in the simulator,
/// delivered over real HTTP and answered through the simulator's Send Consumption Information,
/// which validates every body with Apple's V2 rules: the rule and its line in the record, the
/// exact body Apple received, nothing rejected.
@Suite struct RefundRuleTests {
    enum Case: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case legal, notDelivered, serialRefunder, accidentalPurchase, creditsAllUsed, creditsPartlyUsed, vintageFiltersUsed
        case subscriptionFulfillmentIssue, noConsent
        var testDescription: String { rawValue }
    }

    /// What the shipped rules answer, and the body Apple must receive (nil: nothing sent).
    struct Expected {
        var rule: String?
        var blockedBy: String?
        var body: [String: JSONValue]?
        /// Corrections Apple's rules required (field names).
        var corrected: [String] = []
    }

    static func body(_ preference: String?, delivery: String = "DELIVERED", percentage: Int64? = nil, sample: Bool = false)
        -> [String: JSONValue]
    {
        var body: [String: JSONValue] = [
            "customerConsented": .bool(true), "deliveryStatus": .string(delivery), "sampleContentProvided": .bool(sample),
        ]
        body["refundPreference"] = preference.map(JSONValue.string)
        body["consumptionPercentage"] = percentage.map(JSONValue.integer)
        return body
    }

    static func expected(_ scenario: Case) -> Expected {
        switch scenario {
        case .legal: Expected(rule: "legal-requests", body: body("GRANT_FULL"))
        // The app reported 30 % used of an undelivered pack: Apple needs 0 then (corrected).
        case .notDelivered:
            Expected(rule: "not-delivered", body: body("GRANT_FULL", delivery: "UNDELIVERED_SERVER_OUTAGE", percentage: 0),
                     corrected: ["consumptionPercentage"])
        case .serialRefunder: Expected(rule: "serial-refunder", body: body("DECLINE", percentage: 50_000))
        case .accidentalPurchase: Expected(rule: "accidental-purchase-unused", body: body("GRANT_FULL", percentage: 0))
        case .creditsAllUsed: Expected(rule: "credits-all-used", body: body("DECLINE", percentage: 100_000))
        case .creditsPartlyUsed: Expected(rule: "credits-partly-used", body: body("GRANT_PRORATED", percentage: 35_000))
        case .vintageFiltersUsed: Expected(rule: "vintage-filters-used", body: body("DECLINE", percentage: 60_000, sample: true))
        // The app reported 80 % used of an auto-renewable subscription: Apple computes that
        // itself, so the percentage is omitted (corrected).
        case .subscriptionFulfillmentIssue:
            Expected(rule: "subscription-fulfillment-issue", body: body("GRANT_PRORATED"), corrected: ["consumptionPercentage"])
        case .noConsent: Expected(rule: nil, blockedBy: "no-answer-without-consent", body: nil)
        }
    }

    /// Builds the customer's history and Apple's request; returns the transaction asked about.
    static func play(_ scenario: Case, _ harness: ServiceHarness) async throws -> String {
        let token = UUID()
        if scenario != .noConsent { try await harness.consent(token) }
        let (id, facts, reason) = try await purchase(scenario, harness, token: token)
        if let facts { try await harness.reportFacts(id, facts) }
        try await harness.askRefund(id, reason)
        return id
    }

    /// The case's history up to the purchase asked about: that purchase, what the app reports on
    /// it (nil: nothing) and the customer's reason.
    static func purchase(_ scenario: Case, _ harness: ServiceHarness, token: UUID) async throws
        -> (id: String, facts: String?, reason: ConsumptionRequestReason)
    {
        let credits = "com.lumen.credits.100"
        switch scenario {
        case .legal, .noConsent:
            return (try await harness.buy(credits, token: token), nil, .legal)
        case .notDelivered:
            let id = try await harness.buy(credits, token: token)
            return (id, #"{"deliveryStatus":"UNDELIVERED_SERVER_OUTAGE","consumptionPercentage":30000}"#, .fulfillmentIssue)
        case .serialRefunder:
            for _ in 0..<2 {
                let earlier = try await harness.buy(credits, token: token)
                harness.store.clock.advance(by: 60)
                try await harness.settled(harness.store.grantRefund(transactionId: earlier))
            }
            return (try await harness.buy(credits, token: token), #"{"consumptionPercentage":50000}"#, .unsatisfiedWithPurchase)
        case .accidentalPurchase:
            let id = try await harness.buy("com.lumen.filters.vintage", type: .nonConsumable, price: 2_990, token: token)
            return (id, #"{"sessionsSincePurchase":0,"consumptionPercentage":0}"#, .unintendedPurchase)
        case .creditsAllUsed, .creditsPartlyUsed:
            let id = try await harness.buy(credits, token: token)
            let used = scenario == .creditsAllUsed ? 100_000 : 35_000
            return (id, #"{"consumptionPercentage":\#(used),"deliveryStatus":"DELIVERED"}"#, .unsatisfiedWithPurchase)
        case .vintageFiltersUsed:
            let id = try await harness.buy("com.lumen.filters.vintage", type: .nonConsumable, price: 2_990, token: token)
            return (id, #"{"sessionsSincePurchase":5,"consumptionPercentage":60000}"#, .unsatisfiedWithPurchase)
        case .subscriptionFulfillmentIssue:
            let (bought, _) = try await harness.subscribeFullPriceAnnual(appAccountToken: token)
            return (try #require(bought.transactionId), #"{"consumptionPercentage":80000}"#, .fulfillmentIssue)
        }
    }

    @Test(arguments: TestBackend.selected, Case.allCases)
    func eachShippedRefundRule(_ backend: TestBackend, _ scenario: Case) async throws {
        try await ServiceHarness.with(backend) { harness in
            let id = try await Self.play(scenario, harness)
            let expected = Self.expected(scenario)
            let record = try await harness.settledConsumption(id)
            #expect(record["ruleId"]?.stringValue == expected.rule)
            if let rule = expected.rule {
                #expect(record["ruleLine"]?.integerValue == Int64(try OfferDecisionTests.line(ofRule: rule)))
            }
            #expect(record["blockedBy"]?.stringValue == expected.blockedBy)
            #expect(record[path: "record.explanation"]?.stringValue?.isEmpty == false)
            let received = await harness.receivedBodies(id)
            if let body = expected.body {
                #expect(record["state"]?.stringValue == "sent", "\(record["lastError"] ?? .null)")
                #expect(record["consentBasis"]?.stringValue == "recorded")
                #expect(record["body"]?.objectValue == body)
                #expect(received.count == 1)
                // Apple received exactly the stored body.
                #expect(received.first.flatMap { JSONValue.parse(Data($0.rawBody.utf8))?.objectValue } == body)
                #expect(record["attempts"]?.arrayValue?.count == 1)
                #expect(record[path: "attempts"]?.arrayValue?.first?.objectValue?["httpStatus"]?.integerValue == 202)
            } else {
                #expect(record["state"]?.stringValue == "not_sent")
                #expect(record["body"] == nil || record["body"] == .null)
                #expect(received.isEmpty)
                #expect(record[path: "record.notSentReason"]?.stringValue?.contains("no-answer-without-consent") == true)
            }
            let corrections = record[path: "record.body.corrections"]?.arrayValue?.compactMap { $0.objectValue?["field"]?.stringValue } ?? []
            #expect(corrections == expected.corrected)
            #expect(await harness.store.rejectedConsumptionInformation().isEmpty)
        }
    }
}
