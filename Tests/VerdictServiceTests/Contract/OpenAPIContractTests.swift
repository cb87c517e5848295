import Foundation
import Testing

/// The contract checker itself: it accepts what the document describes and reports what it does not.
@Suite struct OpenAPIContractTests {
    let contract = OpenAPIContract.service

    @Test func conformingAnswersPass() {
        #expect(contract.violations(method: "GET", path: "/healthz", status: 200, body: Data(#"{"status":"ok"}"#.utf8)).isEmpty)
        #expect(contract.violations(method: "GET", path: "/v1/nothing", status: 404, body: Data()).isEmpty)
        #expect(contract.violations(method: "TRACE", path: "/v1/rules", status: 405, body: Data()).isEmpty)
        let error = Data(#"{"error":{"code":"INVALID_PARAMETER","message":"limit must be given once"}}"#.utf8)
        #expect(contract.violations(method: "GET", path: "/v1/jobs?limit=1&limit=2", status: 400, body: error).isEmpty)
    }

    @Test func departuresAreReported() {
        let cases: [(String, String, Int, String, String)] = [
            ("GET", "/healthz", 200, #"{"status":"bad"}"#, "is not"),
            ("GET", "/healthz", 200, #"{"status":"ok","extra":1}"#, "not a documented property"),
            ("GET", "/healthz", 201, #"{"status":"ok"}"#, "status is not documented"),
            ("GET", "/v1/nothing", 200, "{}", "not in the document"),
            ("DELETE", "/v1/rules", 200, "{}", "method is not in the document"),
            ("GET", "/v1/jobs", 400, #"{"error":{"code":"X"}}"#, "required but missing"),
            ("GET", "/v1/jobs", 200, "not json", "not JSON"),
        ]
        for (method, path, status, body, expected) in cases {
            let found = contract.violations(method: method, path: path, status: status, body: Data(body.utf8))
            #expect(found.contains { $0.contains(expected) }, "\(method) \(path) \(status) \(body): \(found)")
        }
    }
}
