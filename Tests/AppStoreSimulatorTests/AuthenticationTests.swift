import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Bearer-token checks of the simulated App Store Server API.
@Suite struct AuthenticationTests {
    /// Claims and header of a token, as JSON objects, so each test can break one of them.
    struct TokenParts {
        var header: [String: String]
        var claims: [String: Any]

        func sign(with key: IssuedInAppPurchaseKey) throws -> String {
            let header = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
            let payload = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
            return try CompactJWS.signES256(header: header, payload: payload, key: key.privateKey)
        }
    }

    static func validParts(_ harness: SimulatorHarness) -> TokenParts {
        let now = Int64(harness.store.now.timeIntervalSince1970)
        return TokenParts(
            header: ["alg": "ES256", "kid": harness.store.issuedKey.keyId, "typ": "JWT"],
            claims: ["iss": harness.store.issuedKey.issuerId, "iat": now, "exp": now + 300,
                     "aud": "appstoreconnect-v1", "bid": harness.store.configuration.bundleId])
    }

    /// Sends Get Transaction Info with `token` and returns the response.
    static func getTransactionInfo(_ harness: SimulatorHarness, token: String) async throws -> AppStoreHTTPResponse {
        let id = try await harness.buyConsumable()
        return try await harness.raw("GET", "/inApps/v1/transactions/\(id)", bearer: token)
    }

    @Test func validTokenFromTheClientIsAccepted() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable(price: 1990)
            let response = try await harness.client.getTransactionInfo(transactionId: id)
            let signed = try #require(response.signedTransactionInfo)
            let payload = try AppStoreJSON.decoder().decode(
                JWSTransactionDecodedPayload.self, from: try #require(CompactJWS(signed)).payload)
            #expect(payload.transactionId == id)
            #expect(payload.price == 1990)
        }
    }

    @Test func validForgedTokenIsAccepted() async throws {
        try await withSimulator { harness in
            let token = try Self.validParts(harness).sign(with: harness.store.issuedKey)
            #expect(try await Self.getTransactionInfo(harness, token: token).status == 200)
        }
    }

    /// One way to break a token.
    enum Breakage: String, CaseIterable, Sendable {
        case wrongKey, wrongKeyId, wrongIssuer, wrongAudience, wrongBundleId, missingExpiration,
             lifetimeOverSixtyMinutes, expired, noBearerHeader
    }

    @Test(arguments: Breakage.allCases)
    func brokenTokenIsRefusedWith401AndNoBody(_ breakage: Breakage) async throws {
        try await withSimulator { harness in
            var parts = Self.validParts(harness)
            var key = harness.store.issuedKey
            let iat = parts.claims["iat"] as! Int64
            switch breakage {
            case .wrongKey: key = .issue()
            case .wrongKeyId: parts.header["kid"] = "ZZZZZZZZZZ"
            case .wrongIssuer: parts.claims["iss"] = UUID().uuidString.lowercased()
            case .wrongAudience: parts.claims["aud"] = "appstoreconnect-v2"
            case .wrongBundleId: parts.claims["bid"] = "com.example.other"
            case .missingExpiration: parts.claims["exp"] = nil
            case .lifetimeOverSixtyMinutes: parts.claims["exp"] = iat + 3601
            case .expired:
                parts.claims["iat"] = iat - 600
                parts.claims["exp"] = iat - 300
            case .noBearerHeader: break
            }
            let token = breakage == .noBearerHeader ? nil : try parts.sign(with: key)
            let id = try await harness.buyConsumable()
            let response = try await harness.raw("GET", "/inApps/v1/transactions/\(id)", bearer: token)
            #expect(response.status == 401)
            #expect(response.body.isEmpty)
        }
    }

    @Test func sixtyMinuteLifetimeIsAccepted() async throws {
        try await withSimulator { harness in
            var parts = Self.validParts(harness)
            parts.claims["exp"] = (parts.claims["iat"] as! Int64) + 3600
            let token = try parts.sign(with: harness.store.issuedKey)
            #expect(try await Self.getTransactionInfo(harness, token: token).status == 200)
        }
    }

    @Test func clientFailureFor401HasNoErrorCode() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            harness.store.clock.advance(by: 7200)
            let stale = try AppStoreServerAPIClient(
                signingKey: harness.store.issuedKey.privateKey, keyId: harness.store.issuedKey.keyId,
                issuerId: harness.store.issuedKey.issuerId, bundleId: harness.store.configuration.bundleId,
                environment: .sandbox, baseURL: harness.baseURL, transport: harness.transport,
                clock: { Date().addingTimeInterval(-86400) })
            let failure = await apiFailure { _ = try await stale.getTransactionInfo(transactionId: id) }
            #expect(failure?.httpStatus == 401)
            #expect(failure?.rawErrorCode == nil)
        }
    }
}
