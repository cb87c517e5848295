import AppStoreServer
import Foundation
import HTTPTypes
import Hummingbird
import Testing
import VerdictService

/// Routing and authentication, in-process: the router serves exactly the document's operations,
/// answers other methods on a known path 405 with `Allow`, protects everything but the intake and
/// probes with the bearer token, and keeps the deprecated offer path answering.
@Suite struct RouterTests {
    /// A concrete path for a template (`{name}` → a value that passes the parameter's check).
    static func concrete(_ template: String) -> String {
        template
            .replacingOccurrences(of: "{appAccountToken}", with: "5f4c6d1e-7a8b-4c9d-8e0f-1a2b3c4d5e6f")
            .replacingOccurrences(of: "{originalTransactionId}", with: "2000000000000001")
            .replacingOccurrences(of: "{transactionId}", with: "2000000000000001")
            .replacingOccurrences(of: "{notificationUUID}", with: "9f0d3c2e-1b4a-4e5f-8a7b-6c5d4e3f2a1b")
            .replacingOccurrences(of: "{decisionId}", with: "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e")
            .replacingOccurrences(of: "{replayId}", with: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f")
    }

    static let open: Set<String> = [
        "POST /v1/notifications", "POST /v1/retention/realtime", "GET /healthz", "GET /readyz", "GET /openapi.yaml",
    ]

    @Test func theRouterServesExactlyTheDocumentedOperations() async throws {
        try await RouterHarness.with { harness in
            let documented = OpenAPIContract.service.operations
            var served: Set<String> = []
            for route in harness.service.makeRouter().routes {
                let path = "\(route.path)".hasPrefix("/") ? "\(route.path)" : "/\(route.path)"
                let operation = "\(route.method.rawValue) \(path)"
                if documented.contains(operation) {
                    served.insert(operation)
                    continue
                }
                // The console's pages are HTML, not the API (ConsoleTests).
                if path == "/console" || path.hasPrefix("/console/"), route.method == .get || route.method == .post,
                   (try await harness.send(route.method, Self.concrete(path), token: nil)).status != 405 {
                    continue
                }
                // Anything else the router holds is the 405 answer for a method the path does not serve.
                let answer = try await harness.send(route.method, Self.concrete(path))
                #expect(answer.status == 405, "\(operation) is served but not documented")
            }
            #expect(served == documented, "documented but not served: \(documented.subtracting(served))")
        }
    }

    @Test func anUnservedMethodIs405WithAllow() async throws {
        try await RouterHarness.with { harness in
            let cases: [(HTTPRequest.Method, String, String)] = [
                (.delete, "/v1/rules", "GET"),
                (.post, "/v1/notifications/9f0d3c2e-1b4a-4e5f-8a7b-6c5d4e3f2a1b", "GET"),
                (.get, "/v1/notifications", "POST"),
                (.patch, "/v1/customers/5f4c6d1e-7a8b-4c9d-8e0f-1a2b3c4d5e6f/consent", "GET, PUT"),
                (.put, "/healthz", "GET"),
                (HTTPRequest.Method("QUERY")!, "/v1/rules/stats", "GET"),
                // Methods no server knows, HEAD, and a method is case-sensitive ("get" is not GET).
                (HTTPRequest.Method("BREW")!, "/v1/notifications", "POST"),
                (HTTPRequest.Method("BREW")!, "/v1/rules/replay/r-1/report.html", "GET"),
                (.head, "/v1/decisions/d-1", "GET"),
                (HTTPRequest.Method("get")!, "/healthz", "GET"),
                (.connect, "/console/rules", "GET"),
            ]
            for (method, path, allow) in cases {
                let answer = try await harness.send(method, path, token: nil)
                #expect(answer.status == 405, "\(method) \(path)")
                #expect(answer.headers[.allow] == allow, "\(method) \(path)")
                #expect(answer.body.jsonObject[path: "error.code"]?.stringValue == "METHOD_NOT_ALLOWED")
            }
            #expect(try await harness.send(.get, "/v1/nothing-here").status == 404)
            #expect(try await harness.send(HTTPRequest.Method("BREW")!, "/v1/nothing-here").status == 404)
            #expect(try await harness.send(.get, "/v1/decisions/d-1/more").status == 404)
        }
    }

    @Test func everyNonPublicOperationNeedsTheToken() async throws {
        try await RouterHarness.with { harness in
            for operation in OpenAPIContract.service.operations.sorted() where !Self.open.contains(operation) {
                let parts = operation.split(separator: " ", maxSplits: 1)
                let method = HTTPRequest.Method(String(parts[0]))!
                for token: String? in [nil, "wrong-token-0123456789", RouterHarness.token + "x", ""] {
                    let answer = try await harness.send(method, Self.concrete(String(parts[1])), body: Data("{}".utf8), token: token)
                    #expect(answer.status == 401, "\(operation) with token \(token ?? "none")")
                    #expect(answer.headers[.wwwAuthenticate] == "Bearer")
                    #expect(answer.body.jsonObject[path: "error.code"]?.stringValue == "UNAUTHORIZED")
                }
            }
        }
    }

    @Test func eachRoleReachesExactlyTheOperationsItsDocumentAdmits() async throws {
        let tokens = ["app": "app-token-0123456789", "viewer": "viewer-token-0123456789", "operator": "operator-token-0123456789"]
        let setting = tokens.map { "\($0.key):\($0.value)" }.sorted().joined(separator: ",") + "," + RouterHarness.token
        try await RouterHarness.with(extraSettings: ["VERDICT_API_TOKENS": setting]) { harness in
            for operation in OpenAPIContract.service.operations.sorted() where !Self.open.contains(operation) {
                let admitted = try #require(OpenAPIContract.service.roles(of: operation), "\(operation) has no x-roles")
                #expect(admitted.contains("operator"), "\(operation): operators reach everything")
                let parts = operation.split(separator: " ", maxSplits: 1)
                let method = HTTPRequest.Method(String(parts[0]))!
                for (role, token) in tokens.sorted(by: { $0.key < $1.key }) {
                    let answer = try await harness.send(method, Self.concrete(String(parts[1])), body: Data("{}".utf8), token: token)
                    if admitted.contains(role) {
                        #expect(![401, 403].contains(answer.status), "\(role) \(operation) → \(answer.status)")
                    } else {
                        #expect(answer.status == 403, "\(role) \(operation) → \(answer.status)")
                        #expect(answer.body.jsonObject[path: "error.code"]?.stringValue == "FORBIDDEN")
                        #expect(!String(decoding: answer.body, as: UTF8.self).contains(token), "the token is never echoed")
                    }
                }
            }
        }
    }

    @Test func theOldOfferPathAnswersDeprecatedWithItsSuccessor() async throws {
        try await RouterHarness.with { harness in
            let current = try await harness.send(.get, "/v1/subscriptions/2000000000000001/offer")
            #expect(current.status == 200)
            #expect(current.headers[HTTPField.Name("Deprecation")!] == nil)
            let old = try await harness.send(.get, "/v1/customers/2000000000000001/offer")
            #expect(old.status == 200)
            #expect(old.body == current.body)
            #expect(old.headers[HTTPField.Name("Deprecation")!] == "@1795564800")
            #expect(old.headers[HTTPField.Name("Link")!] == #"</v1/subscriptions/2000000000000001/offer>; rel="successor-version""#)
        }
    }

    @Test func subscriptionResourcesCheckTheirIdentifier() async throws {
        try await RouterHarness.with { harness in
            for path in ["/v1/subscriptions/not%20an%20id/offer", "/v1/subscriptions/\(String(repeating: "1", count: 65))/decisions",
                         "/v1/customers/not-a-uuid/attributes"] {
                let answer = try await harness.send(.get, path)
                #expect(answer.status == 400, "\(path)")
                #expect(answer.body.jsonObject[path: "error.code"]?.stringValue == "INVALID_PARAMETER", "\(path)")
            }
            let decisions = try await harness.send(.get, "/v1/subscriptions/2000000000000001/decisions")
            #expect(decisions.status == 200 && decisions.body.jsonObject["decisions"]?.arrayValue == [])
        }
    }

    @Test func listLimitsOutsideTheirBoundsAreRefusedNotClamped() async throws {
        try await RouterHarness.with { harness in
            let lists = [("/v1/jobs?", 500), ("/v1/consumption?", 200), ("/v1/decisions?originalTransactionId=1&", 200),
                         ("/v1/subscriptions/2000000000000001/decisions?", 200)]
            for (list, maximum) in lists {
                for bad in ["0", "-1", String(maximum + 1), "abc", "1.5", ""] {
                    let answer = try await harness.send(.get, list + "limit=" + bad)
                    #expect(answer.status == 400, "\(list)limit=\(bad)")
                    #expect(answer.body.jsonObject[path: "error.code"]?.stringValue == "INVALID_PARAMETER")
                }
                for good in ["1", String(maximum)] {
                    #expect(try await harness.send(.get, list + "limit=" + good).status == 200, "\(list)limit=\(good)")
                }
            }
        }
    }
}
