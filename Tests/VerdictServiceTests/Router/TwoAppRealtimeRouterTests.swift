import AppStoreServer
import Foundation
import Testing

/// `POST /v1/retention/realtime` with two apps: the request's App Apple ID picks the app, and a
/// request that names no configured app is never answered — not even when the first app has no
/// App Apple ID to compare with.
@Suite struct TwoAppRealtimeRouterTests {
    typealias Harness = TwoAppRouterHarness
    static let path = "/v1/retention/realtime"

    static func send(_ harness: Harness, appAppleId: Int64, environment: AppStoreEnvironment = .sandbox) async throws -> RouterHarness.Answer {
        let request = RealtimeRouterTests.request(appAppleId: appAppleId, environment: environment)
        return try await harness.router.send(.post, path, body: try RealtimeRouterTests.body(request), token: nil)
    }

    @Test func eachAppIsAnsweredAndAnUnknownAppIsNot() async throws {
        try await Harness.with { harness in
            for appAppleId in Harness.appAppleIds.values {
                let answer = try await Self.send(harness, appAppleId: appAppleId)
                #expect(answer.status == 200, "\(appAppleId)")
            }
            let other = try await Self.send(harness, appAppleId: 42)
            #expect(other.status == 403)
            #expect(other.body.jsonObject[path: "error.code"]?.stringValue == "OTHER_APP")
        }
    }

    @Test func anAppWithoutAnAppAppleIdDoesNotAnswerForUnknownApps() async throws {
        // A, listed first, has no App Apple ID: its verifier alone would accept any app's request.
        try await Harness.with(appAppleIds: [Harness.b: 1_234_567_891]) { harness in
            #expect(try await Self.send(harness, appAppleId: 1_234_567_891).status == 200)
            for appAppleId: Int64 in [42, 1_234_567_890] {
                // Both apps accept Sandbox only: a Production request of no configured app is not
                // answered either (an app's own gets the environment refusal).
                for environment in [AppStoreEnvironment.sandbox, .production] {
                    let answer = try await Self.send(harness, appAppleId: appAppleId, environment: environment)
                    #expect(answer.status == 403, "\(appAppleId) \(environment)")
                    #expect(answer.body.jsonObject[path: "error.code"]?.stringValue == "OTHER_APP")
                }
            }
            let own = try await Self.send(harness, appAppleId: 1_234_567_891, environment: .production)
            #expect(own.status == 422)
            #expect(own.body.jsonObject[path: "error.code"]?.stringValue == "INVALID_ENVIRONMENT")
        }
    }
}
