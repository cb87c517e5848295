import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Set App Account Token: the purchase's transactions, later renewals and renewal info carry the
/// new token; Apple's errors for bad bodies and ids.
@Suite struct AppAccountTokenTests {
    static func put(_ harness: SimulatorHarness, _ id: String, _ body: String) async throws -> AppStoreHTTPResponse {
        try await harness.raw("PUT", "/inApps/v1/transactions/\(id)/appAccountToken", body: Data(body.utf8),
                              bearer: try harness.bearer())
    }

    @Test func tokenIsSetOnEveryTransactionAndLaterRenewals() async throws {
        try await withSimulator { harness in
            let original = try #require(try await harness.store.subscribe(
                SubscribeRequest(productId: "com.example.monthly")).originalTransactionId)
            let renewal = try #require(try await harness.store.renew(originalTransactionId: original).transactionId)
            let token = UUID()
            let response = try await Self.put(harness, original, #"{"appAccountToken":"\#(token.uuidString.lowercased())"}"#)
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
            let verifier = try SignedScenarioTests.verifier(harness)
            for id in [original, renewal] {
                let info = try await harness.client.getTransactionInfo(transactionId: id)
                #expect(try await verifier.verifyTransaction(try #require(info.signedTransactionInfo)).appAccountToken == token)
            }
            #expect(await harness.store.renewalInfo(originalTransactionId: original)?.appAccountToken == token)
            let next = try await harness.store.renew(originalTransactionId: original)
            #expect(next.transaction?.appAccountToken == token)
        }
    }

    @Test func errorsAreApples() async throws {
        try await withSimulator { harness in
            let original = try #require(try await harness.store.subscribe(
                SubscribeRequest(productId: "com.example.monthly")).originalTransactionId)
            let renewal = try #require(try await harness.store.renew(originalTransactionId: original).transactionId)
            let valid = #"{"appAccountToken":"\#(UUID().uuidString)"}"#
            let cases: [(id: String, body: String, status: Int, code: Int64)] = [
                (original, #"{"appAccountToken":"nope"}"#, 400, 4_000_183),
                (original, "{}", 400, 4_000_183),
                (renewal, valid, 400, 4_000_187),
                ("2999999999999999", valid, 404, 4_040_010),
                ("abc", valid, 400, 4_000_006),
            ]
            for item in cases {
                let response = try await Self.put(harness, item.id, item.body)
                #expect(response.status == item.status, "\(item.id) \(item.body)")
                #expect(try AssignedTransactionRefusalTests.errorCode(response) == item.code, "\(item.id) \(item.body)")
            }
            let family = try #require(try await harness.store.purchase(OneTimePurchaseRequest(
                productId: "com.example.pro", type: .nonConsumable, inAppOwnershipType: .familyShared)).transactionId)
            #expect(try AssignedTransactionRefusalTests.errorCode(try await Self.put(harness, family, valid)) == 4_000_185)
        }
    }
}
