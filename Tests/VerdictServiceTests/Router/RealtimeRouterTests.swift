import AppStoreServer
import AppStoreSimulator
import Foundation
import HTTPTypes
import Testing

/// `POST /v1/retention/realtime` in-process: what reaches the decision and what is refused first.
@Suite struct RealtimeRouterTests {
    static func request(appAppleId: Int64 = 1_234_567_890, environment: AppStoreEnvironment = .sandbox) -> DecodedRealtimeRequestBody {
        DecodedRealtimeRequestBody(
            originalTransactionId: "2000000000000001", appAppleId: appAppleId, productId: "com.lumen.pro.annual",
            userLocale: "en-US", requestIdentifier: UUID(), signedDate: Date(), environment: environment)
    }

    static func body(_ request: DecodedRealtimeRequestBody) throws -> Data {
        try JSONEncoder().encode(RealtimeRequestBody(signedPayload: RouterHarness.pki.signer().sign(request)))
    }

    @Test func refusalsComeBeforeAnyDecision() async throws {
        try await RouterHarness.with { harness in
            let path = "/v1/retention/realtime"
            #expect(try await harness.send(.post, path, body: Data("{}".utf8), token: nil).status == 400)
            #expect(try await harness.send(.post, path, body: Data("[".utf8), token: nil).status == 400)
            #expect(try await harness.send(.post, path, body: try Self.body(Self.request()), contentType: "text/plain", token: nil).status == 415)
            let big = Data(#"{"signedPayload":""#.utf8) + Data(repeating: 0x61, count: 70_000) + Data(#""}"#.utf8)
            #expect(try await harness.send(.post, path, body: big, token: nil).status == 413)
            let unsigned = try await harness.send(.post, path, body: Data(#"{"signedPayload":"a.b.c"}"#.utf8), token: nil)
            #expect(unsigned.status == 422)
            #expect(unsigned.body.jsonObject[path: "error.code"]?.stringValue == "INVALID_JWS")
            let production = try await harness.send(.post, path, body: try Self.body(Self.request(environment: .production)), token: nil)
            #expect(production.status == 422)
            #expect(production.body.jsonObject[path: "error.code"]?.stringValue == "INVALID_ENVIRONMENT")
            // Over a socket the connection is closed unanswered; in-process the thrown error shows.
            let other = try await harness.send(.post, path, body: try Self.body(Self.request(appAppleId: 42)), token: nil)
            #expect(other.status == 403)
            #expect(other.body.jsonObject[path: "error.code"]?.stringValue == "OTHER_APP")
        }
    }

    @Test func aValidRequestForAnUnknownSubscriptionLetsAppleFallBack() async throws {
        try await RouterHarness.with { harness in
            let answer = try await harness.send(.post, "/v1/retention/realtime", body: try Self.body(Self.request()), token: nil)
            #expect(answer.status == 200)
            #expect(String(decoding: answer.body, as: UTF8.self) == "{}")
            #expect(answer.headers[.contentType] == "application/json")
        }
    }
}
