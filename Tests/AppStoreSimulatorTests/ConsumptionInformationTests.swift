import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Send Consumption Information (V2): Apple's body rules, each with its error code, and the
/// records of accepted and rejected bodies.
@Suite struct ConsumptionInformationTests {
    /// A body that breaks one rule, for a consumable or an auto-renewable subscription.
    struct Violation: Sendable, CustomTestStringConvertible {
        let name: String
        let body: String
        let subscription: Bool
        let errorCode: Int64
        var testDescription: String { name }
    }

    static let violations: [Violation] = [
        Violation(name: "customerConsented false",
                  body: #"{"customerConsented":false,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#,
                  subscription: false, errorCode: 4_000_035),
        Violation(name: "customerConsented missing",
                  body: #"{"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#,
                  subscription: false, errorCode: 4_000_035),
        Violation(name: "customerConsented as 1",
                  body: #"{"customerConsented":1,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#,
                  subscription: false, errorCode: 4_000_035),
        Violation(name: "deliveryStatus unknown",
                  body: #"{"customerConsented":true,"deliveryStatus":"LOST","sampleContentProvided":false}"#,
                  subscription: false, errorCode: 4_000_036),
        Violation(name: "deliveryStatus missing",
                  body: #"{"customerConsented":true,"sampleContentProvided":false}"#,
                  subscription: false, errorCode: 4_000_036),
        Violation(name: "sampleContentProvided not a bool",
                  body: #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":"no"}"#,
                  subscription: false, errorCode: 4_000_041),
        Violation(name: "refundPreference unknown",
                  body: #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"refundPreference":"MAYBE"}"#,
                  subscription: false, errorCode: 4_000_044),
        Violation(name: "consumptionPercentage above 100000",
                  body: #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"consumptionPercentage":100001}"#,
                  subscription: false, errorCode: SimulatorAPIErrorCode.consumptionPercentageOutOfRange),
        Violation(name: "consumptionPercentage negative",
                  body: #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"consumptionPercentage":-1}"#,
                  subscription: false, errorCode: SimulatorAPIErrorCode.consumptionPercentageOutOfRange),
        Violation(name: "non-zero percentage when undelivered",
                  body: #"{"customerConsented":true,"deliveryStatus":"UNDELIVERED_OTHER","sampleContentProvided":false,"consumptionPercentage":5000}"#,
                  subscription: false, errorCode: SimulatorAPIErrorCode.undeliveredConsumptionPercentageNonZero),
        Violation(name: "percentage for an auto-renewable",
                  body: #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"consumptionPercentage":0}"#,
                  subscription: true, errorCode: 4_000_209),
        Violation(name: "GRANT_PRORATED without percentage on a consumable",
                  body: #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"refundPreference":"GRANT_PRORATED"}"#,
                  subscription: false, errorCode: SimulatorAPIErrorCode.consumptionPercentageOutOfRange),
        Violation(name: "GRANT_PRORATED with 100000 on a consumable",
                  body: #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"refundPreference":"GRANT_PRORATED","consumptionPercentage":100000}"#,
                  subscription: false, errorCode: SimulatorAPIErrorCode.consumptionPercentageOutOfRange),
        Violation(name: "body not JSON", body: "customerConsented=true", subscription: false, errorCode: 4_000_000),
    ]

    static func transaction(_ harness: SimulatorHarness, subscription: Bool) async throws -> String {
        if subscription {
            return try #require(try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly")).transactionId)
        }
        return try await harness.buyConsumable()
    }

    @Test(arguments: violations)
    func violationIsRejectedWithItsCode(_ violation: Violation) async throws {
        try await withSimulator { harness in
            let id = try await Self.transaction(harness, subscription: violation.subscription)
            let response = try await harness.raw(
                "PUT", "/inApps/v2/transactions/consumption/\(id)", body: Data(violation.body.utf8),
                bearer: try harness.bearer())
            #expect(response.status == 400)
            let payload = try AppStoreJSON.decoder().decode(ErrorPayload.self, from: response.body)
            #expect(payload.errorCode == violation.errorCode)
            #expect(!payload.errorMessage.isEmpty)
            #expect(await harness.store.receivedConsumptionInformation().isEmpty)
            let rejected = await harness.store.rejectedConsumptionInformation()
            #expect(rejected.count == 1)
            #expect(rejected.first?.transactionId == id)
            #expect(rejected.first?.rawBody == violation.body)
            #expect(rejected.first?.httpStatus == 400)
            #expect(rejected.first?.errorCode == violation.errorCode)
            #expect(rejected.first?.errorMessage == payload.errorMessage)
            #expect(rejected.first?.receivedDate == harness.store.now)
        }
    }

    @Test func clientSendsFalseConsentAndGets4000035() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            let failure = await apiFailure {
                try await harness.client.sendConsumptionInformation(transactionId: id, request: ConsumptionRequest(
                    customerConsented: false, deliveryStatus: .delivered, sampleContentProvided: false))
            }
            #expect(failure?.httpStatus == 400)
            #expect(failure?.apiError == .invalidCustomerConsented)
        }
    }

    /// A body Apple accepts, for a consumable or an auto-renewable subscription.
    struct Accepted: Sendable, CustomTestStringConvertible {
        let name: String
        let request: ConsumptionRequest
        let subscription: Bool
        var testDescription: String { name }
    }

    static let accepted: [Accepted] = [
        Accepted(name: "minimal", request: ConsumptionRequest(
            customerConsented: true, deliveryStatus: .undeliveredQualityIssue, sampleContentProvided: false),
                 subscription: false),
        Accepted(name: "full refund preference with percentage", request: ConsumptionRequest(
            customerConsented: true, consumptionPercentage: 50000, deliveryStatus: .delivered,
            refundPreference: .grantFull, sampleContentProvided: false), subscription: false),
        Accepted(name: "prorated consumable", request: ConsumptionRequest(
            customerConsented: true, consumptionPercentage: 25000, deliveryStatus: .delivered,
            refundPreference: .grantProrated, sampleContentProvided: true), subscription: false),
        Accepted(name: "undelivered with zero percentage", request: ConsumptionRequest(
            customerConsented: true, consumptionPercentage: 0, deliveryStatus: .undeliveredServerOutage,
            refundPreference: .grantFull, sampleContentProvided: false), subscription: false),
        Accepted(name: "prorated auto-renewable without percentage", request: ConsumptionRequest(
            customerConsented: true, deliveryStatus: .delivered, refundPreference: .grantProrated,
            sampleContentProvided: true), subscription: true),
        Accepted(name: "decline for auto-renewable", request: ConsumptionRequest(
            customerConsented: true, deliveryStatus: .delivered, refundPreference: .decline,
            sampleContentProvided: false), subscription: true),
    ]

    @Test(arguments: accepted)
    func validBodyIsAcceptedAndRecorded(_ accepted: Accepted) async throws {
        try await withSimulator { harness in
            let id = try await Self.transaction(harness, subscription: accepted.subscription)
            _ = try await harness.store.requestRefund(transactionId: id, reason: .unsatisfiedWithPurchase)
            try await harness.client.sendConsumptionInformation(transactionId: id, request: accepted.request)
            let received = await harness.store.receivedConsumptionInformation()
            #expect(received.count == 1)
            #expect(received.first?.transactionId == id)
            #expect(received.first?.request == accepted.request)
            #expect(received.first?.receivedDate == harness.store.now)
            #expect(await harness.store.rejectedConsumptionInformation().isEmpty)
        }
    }

    @Test func acceptedAnswerIs202WithoutBody() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            let body = #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false}"#
            let response = try await harness.raw("PUT", "/inApps/v2/transactions/consumption/\(id)",
                                                 body: Data(body.utf8), bearer: try harness.bearer())
            #expect(response.status == 202)
            #expect(response.body.isEmpty)
            #expect(await harness.store.receivedConsumptionInformation().first?.rawBody == body)
        }
    }

    @Test func unknownTransactionIs404() async throws {
        try await withSimulator { harness in
            let failure = await apiFailure {
                try await harness.client.sendConsumptionInformation(transactionId: "2999999999999999", request: ConsumptionRequest(
                    customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false))
            }
            #expect(failure?.httpStatus == 404)
            #expect(failure?.rawErrorCode == 4_040_010)
            let rejected = await harness.store.rejectedConsumptionInformation()
            #expect(rejected.map(\.transactionId) == ["2999999999999999"])
            #expect(rejected.first?.httpStatus == 404)
            #expect(rejected.first?.errorCode == 4_040_010)
        }
    }

    @Test func familySharedTransactionIsRejected() async throws {
        try await withSimulator { harness in
            let id = try #require(try await harness.store.purchase(OneTimePurchaseRequest(
                productId: "com.example.pro", type: .nonConsumable, inAppOwnershipType: .familyShared)).transactionId)
            let failure = await apiFailure {
                try await harness.client.sendConsumptionInformation(transactionId: id, request: ConsumptionRequest(
                    customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false))
            }
            #expect(failure?.rawErrorCode == 4_000_185)
        }
    }
}
