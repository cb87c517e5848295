import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Send Consumption Information V1: every field's rule with its error code, and the record of
/// accepted bodies.
@Suite struct ConsumptionInformationV1Tests {
    /// A body that breaks one rule: the valid body with `field` replaced (nil: removed).
    struct Violation: Sendable, CustomTestStringConvertible {
        let field: String
        let value: String?
        let errorCode: Int64
        var testDescription: String { "\(field) = \(value ?? "missing")" }
    }

    static let valid: [(String, String)] = [
        ("customerConsented", "true"), ("consumptionStatus", "1"), ("platform", "1"),
        ("sampleContentProvided", "false"), ("deliveryStatus", "0"), ("appAccountToken", #""""#),
        ("accountTenure", "3"), ("playTime", "2"), ("lifetimeDollarsRefunded", "0"),
        ("lifetimeDollarsPurchased", "2"), ("userStatus", "1"), ("refundPreference", "3"),
    ]

    static func body(replacing field: String? = nil, with value: String? = nil) -> String {
        let members = valid.compactMap { name, text -> String? in
            guard name == field else { return "\"\(name)\":\(text)" }
            return value.map { "\"\(name)\":\($0)" }
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    static let violations: [Violation] = [
        Violation(field: "customerConsented", value: "false", errorCode: 4_000_035),
        Violation(field: "customerConsented", value: nil, errorCode: 4_000_035),
        Violation(field: "consumptionStatus", value: "4", errorCode: 4_000_034),
        Violation(field: "consumptionStatus", value: nil, errorCode: 4_000_034),
        Violation(field: "platform", value: "3", errorCode: 4_000_039),
        Violation(field: "sampleContentProvided", value: "0", errorCode: 4_000_041),
        Violation(field: "deliveryStatus", value: "6", errorCode: 4_000_036),
        Violation(field: "deliveryStatus", value: #""DELIVERED""#, errorCode: 4_000_036),
        Violation(field: "appAccountToken", value: #""not-a-uuid""#, errorCode: 4_000_033),
        Violation(field: "appAccountToken", value: nil, errorCode: 4_000_033),
        Violation(field: "accountTenure", value: "8", errorCode: 4_000_032),
        Violation(field: "playTime", value: "-1", errorCode: 4_000_040),
        Violation(field: "lifetimeDollarsRefunded", value: "8", errorCode: 4_000_038),
        Violation(field: "lifetimeDollarsPurchased", value: nil, errorCode: 4_000_037),
        Violation(field: "userStatus", value: "5", errorCode: 4_000_042),
        Violation(field: "refundPreference", value: "4", errorCode: 4_000_044),
    ]

    @Test(arguments: violations)
    func violationIsRejectedWithItsCode(_ violation: Violation) async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            let response = try await harness.raw(
                "PUT", "/inApps/v1/transactions/consumption/\(id)",
                body: Data(Self.body(replacing: violation.field, with: violation.value).utf8), bearer: try harness.bearer())
            #expect(response.status == 400)
            let payload = try AppStoreJSON.decoder().decode(ErrorPayload.self, from: response.body)
            #expect(payload.errorCode == violation.errorCode)
            #expect(!payload.errorMessage.isEmpty)
            #expect(await harness.store.receivedConsumptionInformationV1().isEmpty)
        }
    }

    @Test func validBodiesAreAcceptedAndRecorded() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            let token = UUID().uuidString
            let bodies = [Self.body(), Self.body(replacing: "refundPreference"),
                          Self.body(replacing: "appAccountToken", with: "\"\(token)\"")]
            for body in bodies {
                let response = try await harness.raw("PUT", "/inApps/v1/transactions/consumption/\(id)",
                                                     body: Data(body.utf8), bearer: try harness.bearer())
                #expect(response.status == 202)
                #expect(response.body.isEmpty)
            }
            let received = await harness.store.receivedConsumptionInformationV1()
            #expect(received.map(\.rawBody) == bodies)
            #expect(received.allSatisfy { $0.transactionId == id && $0.receivedDate == harness.store.now })
            let listed = try await harness.raw("GET", "/simulator/consumption-requests/v1", bearer: nil)
            #expect(try AppStoreJSON.decoder().decode([ReceivedConsumptionInformationV1].self, from: listed.body) == received)
            #expect(await harness.store.receivedConsumptionInformation().isEmpty)
        }
    }

    @Test func pathIsCheckedLikeV2() async throws {
        try await withSimulator { harness in
            let body = Data(Self.body().utf8)
            let unknown = try await harness.raw("PUT", "/inApps/v1/transactions/consumption/2999999999999999",
                                                body: body, bearer: try harness.bearer())
            #expect(unknown.status == 404)
            #expect(try AssignedTransactionRefusalTests.errorCode(unknown) == 4_040_010)
            let family = try #require(try await harness.store.purchase(OneTimePurchaseRequest(
                productId: "com.example.pro", type: .nonConsumable, inAppOwnershipType: .familyShared)).transactionId)
            let shared = try await harness.raw("PUT", "/inApps/v1/transactions/consumption/\(family)",
                                               body: body, bearer: try harness.bearer())
            #expect(try AssignedTransactionRefusalTests.errorCode(shared) == 4_000_185)
            let noToken = try await harness.raw("PUT", "/inApps/v1/transactions/consumption/\(family)", body: body, bearer: nil)
            #expect(noToken.status == 401)
        }
    }
}
