import AppStoreServer
import Crypto
import Foundation
import Testing

@Suite("API: client configuration and headers")
struct AppStoreServerAPIClientConfigurationTests {
    static let infoBody = #"{"signedTransactionInfo":"signed_transaction_info_value"}"#

    @Test func productionUsesAppleProductionHost() async throws {
        let transport = RecordingTransport(status: 200, json: Self.infoBody)
        _ = try await APIClientFixtures.client(transport, environment: .production).getTransactionInfo(transactionId: "1234")
        #expect(transport.requests.first?.url.absoluteString == "https://api.storekit.apple.com/inApps/v1/transactions/1234")
    }

    @Test func sandboxUsesAppleSandboxHost() async throws {
        let transport = RecordingTransport(status: 200, json: Self.infoBody)
        _ = try await APIClientFixtures.client(transport, environment: .sandbox).getTransactionInfo(transactionId: "1234")
        #expect(transport.requests.first?.url.absoluteString == "https://api.storekit-sandbox.apple.com/inApps/v1/transactions/1234")
    }

    @Test func baseURLOverrideKeepsItsPathPrefix() async throws {
        let transport = RecordingTransport(status: 200, json: Self.infoBody)
        let client = try APIClientFixtures.client(transport, environment: .sandbox, baseURL: URL(string: "http://127.0.0.1:8080/apple/")!)
        _ = try await client.getTransactionInfo(transactionId: "1234")
        #expect(transport.requests.first?.url.absoluteString == "http://127.0.0.1:8080/apple/inApps/v1/transactions/1234")
    }

    @Test(arguments: [AppStoreEnvironment.xcode, .localTesting])
    func environmentWithoutHostNeedsBaseURL(_ environment: AppStoreEnvironment) {
        #expect(throws: AppStoreServerAPIClient.ConfigurationError.unsupportedEnvironment(environment)) {
            try APIClientFixtures.client(RecordingTransport(status: 200), environment: environment)
        }
    }

    @Test func getSendsBearerTokenAcceptAndUserAgentButNoContentType() async throws {
        let transport = RecordingTransport(status: 200, json: Self.infoBody)
        _ = try await APIClientFixtures.client(transport).getTransactionInfo(transactionId: "1234")
        let request = try #require(transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.body == nil)
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("User-Agent") == "verdict/0.1")
        #expect(request.header("Content-Type") == nil)
        let authorization = try #require(request.header("Authorization"))
        #expect(authorization.hasPrefix("Bearer "))
        let claims = try AppStoreAPIToken.verify(
            String(authorization.dropFirst("Bearer ".count)), publicKey: SigningFixtures.publicKey(),
            keyId: "keyId", issuerId: "issuerId", bundleId: "com.example", now: SigningFixtures.fixedDate
        )
        #expect(claims.iat == 1_698_148_900)
        #expect(claims.exp == 1_698_149_200)
    }

    @Test func everyRequestGetsAFreshToken() async throws {
        let box = SigningTestClock(SigningFixtures.fixedDate)
        let transport = RecordingTransport(status: 200, json: Self.infoBody)
        let client = try APIClientFixtures.client(transport, clock: { box.now })
        _ = try await client.getTransactionInfo(transactionId: "1")
        box.now = box.now.addingTimeInterval(10)
        _ = try await client.getTransactionInfo(transactionId: "1")
        let iats = try transport.requests.map { request in
            let token = try #require(request.header("Authorization")?.dropFirst("Bearer ".count))
            let jws = try #require(CompactJWS(token))
            return try #require(try SigningFixtures.jsonObject(jws.payload)["iat"] as? Int)
        }
        #expect(iats == [1_698_148_900, 1_698_148_910])
    }
}
