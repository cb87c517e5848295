import AppStoreServer
import Foundation
import NIOHTTP1
import Testing
import VerdictService
import VerdictTestSupport

/// `PUT`/`GET /v1/customers/{appAccountToken}/attributes`: checked against the shipped bundle's
/// declaration (`exportsLast30Days: int?`), replaced as a whole, stored on both databases.
@Suite struct CustomerAttributesTests {
    static let token = "6F1C2B52-9D4E-4A43-9A0B-0C1A2F3E4D5C"
    static var path: String { "/v1/customers/\(token)/attributes" }

    @Test(arguments: TestBackend.selected)
    func declaredAttributesAreStoredAndReplaced(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            #expect(try await harness.request(.GET, Self.path).status == 404)
            let put = try await harness.request(.PUT, Self.path, body: Data(#"{"exportsLast30Days": 25}"#.utf8))
            #expect(put.status == 200)
            #expect(put.body.jsonObject["appAccountToken"]?.stringValue == Self.token.lowercased())
            #expect(put.body.jsonObject["attributes"] == .object(["exportsLast30Days": .integer(25)]))
            let read = try await harness.request(.GET, "/v1/customers/\(Self.token.lowercased())/attributes")
            #expect(read.status == 200)
            #expect(read.body.jsonObject["attributes"] == .object(["exportsLast30Days": .integer(25)]))
            #expect((read.body.jsonObject["updatedAt"]?.integerValue ?? 0) > 0)
            // A PUT replaces the set: the optional attribute may be left out.
            #expect(try await harness.request(.PUT, Self.path, body: Data("{}".utf8)).status == 200)
            #expect(try await harness.request(.GET, Self.path).body.jsonObject["attributes"] == .object([:]))
        }
    }

    @Test func undeclaredOrMistypedAttributesAreRefusedAndNothingIsStored() async throws {
        try await RouterHarness.with { harness in
            let cases: [(String, Int, String, String?)] = [
                (#"{"exportsLast30Days": "many"}"#, 422, "ATTRIBUTE_MISMATCH", "exportsLast30Days"),
                (#"{"exportsLast30Days": 2.5}"#, 422, "ATTRIBUTE_MISMATCH", "exportsLast30Days"),
                (#"{"exportsLast30Day": 3}"#, 422, "ATTRIBUTE_MISMATCH", "exportsLast30Days"),
                (#"[1, 2]"#, 422, "INVALID_ATTRIBUTES", nil),
                (#"{"exportsLast30Days": "#, 400, "MALFORMED_JSON", nil),
            ]
            for (body, status, code, mention) in cases {
                let answer = try await harness.request(.PUT, Self.path, body: Data(body.utf8))
                #expect(answer.status == status, "\(body)")
                let error = answer.body.jsonObject["error"]?.objectValue
                #expect(error?["code"]?.stringValue == code, "\(body)")
                if let mention { #expect(error?["message"]?.stringValue?.contains(mention) == true, "\(body)") }
            }
            #expect(try await harness.request(.GET, Self.path).status == 404)
            let badToken = try await harness.request(.PUT, "/v1/customers/not-a-uuid/attributes", body: Data("{}".utf8))
            #expect(badToken.status == 400)
            #expect(badToken.body.jsonObject["error"]?.objectValue?["code"]?.stringValue == "INVALID_PARAMETER")
            let wrongType = try await harness.request(.PUT, Self.path, body: Data("{}".utf8), contentType: "text/plain")
            #expect(wrongType.status == 415)
        }
    }
}
