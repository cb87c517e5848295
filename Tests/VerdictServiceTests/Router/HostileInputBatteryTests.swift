import AppStoreServer
import AppStoreSimulator
import Foundation
import HTTPTypes
import Testing
import VerdictService
import VerdictStorage

/// Over two hundred hostile requests across every endpoint that takes a body, the signed
/// endpoints, paths, query parameters and headers: each is answered with a 4xx JSON error the
/// OpenAPI document declares (``RouterHarness/send`` checks every answer against it), nothing is
/// stored, and the service answers normally afterwards.
@Suite struct HostileInputBatteryTests {
    /// One hostile request.
    struct Case: CustomStringConvertible {
        var name: String
        var method: HTTPRequest.Method
        var path: String
        var body: Data?
        var contentType: String? = "application/json"
        var token: String? = RouterHarness.token
        var headers: HTTPFields = [:]

        var description: String { "\(method) \(path): \(name)" }
    }

    static let token = "5f4c6d1e-7a8b-4c9d-8e0f-1a2b3c4d5e6f"
    static let otid = "2000000000000001"

    /// The operations that read a JSON body, with the valid ids their paths need.
    static let bodyOperations: [(HTTPRequest.Method, String, Bool)] = [
        (.post, "/v1/notifications", false),
        (.post, "/v1/retention/realtime", false),
        (.post, "/v1/offers/signatures", true),
        (.post, "/v1/offers/decide", true),
        (.put, "/v1/customers/\(token)/consent", true),
        (.put, "/v1/subscriptions/\(otid)/consent", true),
        (.put, "/v1/transactions/\(otid)/facts", true),
        (.post, "/v1/rules/replay", true),
        (.put, "/v1/customers/\(token)/attributes", true),
    ]

    /// Bodies no endpoint accepts, whatever its schema.
    static let hostileBodies: [(String, Data, String?)] = {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let wide = "{" + (0..<20_000).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}"
        return [
            ("not JSON", Data("{".utf8), "application/json"),
            ("an array", Data("[]".utf8), "application/json"),
            ("a string", Data(#""x""#.utf8), "application/json"),
            ("a number", Data("1e999".utf8), "application/json"),
            ("null", Data("null".utf8), "application/json"),
            ("empty", Data(), "application/json"),
            ("nested 100,000 deep", Data(deep.utf8), "application/json"),
            ("20,000 members", Data(wide.utf8), "application/json"),
            ("2 MiB", Data(("{\"x\":\"" + String(repeating: "a", count: 2 << 20) + "\"}").utf8), "application/json"),
            ("invalid UTF-8", Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D]), "application/json"),
            ("a lone surrogate escape", Data(#"{"a":"\udc00"}"#.utf8), "application/json"),
            ("a duplicate key", Data(#"{"signedPayload":"a","signedPayload":"b","x":1,"x":2}"#.utf8), "application/json"),
            ("text/plain", Data("{}".utf8), "text/plain"),
            ("no content type", Data("{}".utf8), nil),
            ("form encoded", Data("a=b".utf8), "application/x-www-form-urlencoded"),
            ("trailing garbage", Data("{} {}".utf8), "application/json"),
            ("a raw control character in a string", Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0x00, 0x22, 0x7D]), "application/json"),
        ]
    }()

    static func bodyCases() -> [Case] {
        bodyOperations.flatMap { method, path, needsToken in
            hostileBodies.map { name, body, contentType in
                Case(name: name, method: method, path: path, body: body, contentType: contentType,
                     token: needsToken ? RouterHarness.token : nil)
            }
        }
    }

    /// Signed payloads that are not Apple's: the header's algorithm, the chain, the parts.
    static func jwsCases() throws -> [Case] {
        let signer = RouterHarness.pki.signer()
        let payload = Data(#"{"notificationType":"TEST","notificationUUID":"0d9e5f1c-2b3a-4c5d-8e7f-6a5b4c3d2e1f","version":"2.0","signedDate":1795000000000,"data":{"bundleId":"com.lumen.app","environment":"Sandbox"}}"#.utf8)
        let x5c = try JSONValue.parse(signer.headerJSON)?.objectValue?["x5c"]?.arrayValue?.compactMap(\.stringValue) ?? []
        func header(_ fields: String) -> Data { Data("{\(fields)}".utf8) }
        func chain(_ certificates: [String]) -> String { "[" + certificates.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
        let valid = try signer.sign(payloadJSON: payload)
        let parts = valid.split(separator: ".").map(String.init)
        let tokens: [(String, String)] = [
            ("alg none", Base64URL.encode(header(#""alg":"none","x5c":\#(chain(x5c))"#)) + "." + parts[1] + "."),
            ("alg HS256", Base64URL.encode(header(#""alg":"HS256","x5c":\#(chain(x5c))"#)) + "." + parts[1] + "." + parts[2]),
            ("alg ES384 (another curve)", Base64URL.encode(header(#""alg":"ES384","x5c":\#(chain(x5c))"#)) + "." + parts[1] + "." + parts[2]),
            ("no x5c", try signer.sign(payloadJSON: payload, headerJSON: header(#""alg":"ES256""#))),
            ("a leaf alone", try signer.sign(payloadJSON: payload, headerJSON: header(#""alg":"ES256","x5c":\#(chain(Array(x5c.prefix(1))))"#))),
            ("the chain reversed", try signer.sign(payloadJSON: payload, headerJSON: header(#""alg":"ES256","x5c":\#(chain(x5c.reversed()))"#))),
            ("a chain of 40", try signer.sign(payloadJSON: payload, headerJSON: header(#""alg":"ES256","x5c":\#(chain(Array(repeating: x5c[0], count: 40)))"#))),
            ("garbage certificates", try signer.sign(payloadJSON: payload, headerJSON: header(#""alg":"ES256","x5c":["AAAA","AAAA","AAAA"]"#))),
            ("a self-signed chain of another root", try SimulatorPKI().signer().sign(payloadJSON: payload)),
            ("the signature changed", parts[0] + "." + parts[1] + "." + String(parts[2].reversed())),
            ("the payload changed", parts[0] + "." + Base64URL.encode(Data(#"{"notificationType":"REFUND"}"#.utf8)) + "." + parts[2]),
            ("two parts", parts[0] + "." + parts[1]),
            ("four parts", valid + ".x"),
            ("not base64url", "***.***.***"),
            ("a header that is not JSON", Base64URL.encode(Data("nope".utf8)) + "." + parts[1] + "." + parts[2]),
        ]
        return [(HTTPRequest.Method.post, "/v1/notifications"), (.post, "/v1/retention/realtime")].flatMap { method, path in
            tokens.map { name, jws in
                Case(name: "signedPayload: \(name)", method: method, path: path,
                     body: try! JSONEncoder().encode(["signedPayload": jws]), token: nil)
            }
        }
    }

    /// Paths, query parameters and headers.
    static let requestCases: [Case] = {
        var cases: [Case] = [
            "/v1/notifications/..%2F..%2Fetc%2Fpasswd", "/v1/notifications/%00", "/v1/notifications/" + String(repeating: "a", count: 5_000),
            "/v1/customers/not-a-uuid/attributes", "/v1/customers/%2e%2e/consent", "/v1/subscriptions/-1/consent",
            "/v1/subscriptions/12%0A34/offer", "/v1/transactions/%20/facts", "/v1/decisions/../../rules", "/v1/notifications/not-a-uuid",
            "/v1/rules/replay/not-a-uuid", "/v1/consumption/%FF", "/v1/decisions/" + String(repeating: "9", count: 300),
            "/v1/rules/replay/%2e%2e%2f", "/v1/../../../etc/passwd",
        ].map { Case(name: "path", method: .get, path: $0, body: nil) }
        cases += [
            "/v1/decisions?limit=-1", "/v1/decisions?limit=abc", "/v1/decisions?limit=1e9", "/v1/decisions?limit=1&limit=2",
            "/v1/decisions?since=yesterday", "/v1/decisions", "/v1/decisions?originalTransactionId=",
            "/v1/jobs?state=everything", "/v1/jobs?limit=%00", "/v1/consumption?limit=0", "/v1/rules/replay?limit=99999",
            "/v1/decisions?since=2026-02-30T00:00:00Z", "/v1/decisions?limit=%F0%9F%98%80",
        ].map { Case(name: "query", method: .get, path: $0, body: nil) }
        cases += [
            Case(name: "no bearer", method: .get, path: "/v1/rules", body: nil, token: nil),
            Case(name: "bearer of 10,000 characters", method: .get, path: "/v1/rules", body: nil, token: String(repeating: "t", count: 10_000)),
            Case(name: "basic auth", method: .get, path: "/v1/rules", body: nil, token: nil, headers: [.authorization: "Basic dXNlcjpwYXNz"]),
            Case(name: "bearer without a token", method: .get, path: "/v1/rules", body: nil, token: nil, headers: [.authorization: "Bearer "]),
            Case(name: "a method the path does not serve", method: .patch, path: "/v1/rules", body: nil),
        ]
        return cases
    }()

    @Test func everyHostileRequestGetsItsDocumentedErrorStoresNothingAndLeavesTheServiceHealthy() async throws {
        let cases = Self.bodyCases() + (try Self.jwsCases()) + Self.requestCases
        #expect(cases.count >= 200, "\(cases.count) cases")
        try await RouterHarness.with { harness in
            for hostile in cases {
                var headers = hostile.headers
                if let contentType = hostile.contentType, hostile.body != nil { headers[.contentType] = contentType }
                let answer = try await harness.send(
                    hostile.method, hostile.path, body: hostile.body, contentType: nil, token: hostile.token, headers: headers)
                #expect((400..<500).contains(answer.status), "\(hostile) → \(answer.status)")
                let error = answer.body.jsonObject["error"]?.objectValue
                #expect(error?["code"]?.stringValue?.isEmpty == false && error?["message"]?.stringValue != nil,
                        "\(hostile): \(String(decoding: answer.body.prefix(200), as: UTF8.self))")
            }
            // Nothing was stored, and the service answers as before.
            let repository = harness.service.apps.first.repository
            #expect(try await repository.notificationDays(DayRange()).isEmpty)
            #expect(try await repository.offerDecisions(matching: DecisionFilter(), limit: 10).isEmpty)
            #expect(try await repository.consumptionRequests(matching: DecisionFilter(), limit: 10).isEmpty)
            #expect(try await harness.send(.get, "/v1/customers/\(Self.token)/attributes").status == 404)
            #expect(try await harness.send(.get, "/v1/transactions/\(Self.otid)/facts").status == 404)
            #expect(try await harness.send(.get, "/healthz", token: nil).status == 200)
            #expect(try await harness.send(.get, "/v1/rules").status == 200)
        }
    }
}
