import AppStoreServer
import Foundation
import NIOHTTP1
import Testing
import VerdictService
import VerdictTestSupport

/// The app-backend endpoints of the refund flow: the consent ledger, transaction facts (checked
/// against Apple's enums and ranges), consumption records; bad input gets a JSON error and
/// stores nothing.
@Suite struct RefundEndpointTests {
    @Test func consentLedgerKeepsHistory() async throws {
        try await ServiceHarness.with(.sqlite) { harness in
            let token = UUID()
            let path = "/v1/customers/\(token.uuidString)/consent"
            var ledger = try await harness.request(.GET, path).body.jsonObject
            #expect(ledger[path: "current.basis"]?.stringValue == "none")
            try await harness.consent(token, true)
            let withdrawal = #"{"consented":false,"at":"2026-01-10T09:30:00Z","source":"settings"}"#
            // An answer given earlier (ISO 8601 `at`) is kept in the history.
            _ = try await harness.request(.PUT, path, body: Data(withdrawal.utf8))
            ledger = try await harness.request(.GET, path).body.jsonObject
            #expect(ledger["history"]?.arrayValue?.count == 2)
            #expect(ledger["appAccountToken"]?.stringValue == token.uuidString.lowercased())
        }
    }

    /// A purchase made without an appAccountToken: consent recorded for its originalTransactionId
    /// lets its refund request be answered; the ledger says which key the answer was recorded under.
    @Test(arguments: TestBackend.selected)
    func consentByOriginalTransactionIdAnswersAPurchaseWithoutAToken(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let unanswered = try await harness.buy("com.lumen.credits.100")
            #expect(try await harness.askRefund(unanswered, .legal)["consentBasis"]?.stringValue == "none")

            let id = try await harness.buy("com.lumen.credits.100")
            let path = "/v1/subscriptions/\(id)/consent"
            let (status, body) = try await harness.request(.PUT, path, body: Data(#"{"consented":true,"source":"support-ticket"}"#.utf8))
            #expect(status == 200, "\(String(decoding: body, as: UTF8.self))")
            let ledger = body.jsonObject
            #expect(ledger["originalTransactionId"]?.stringValue == id)
            #expect(ledger[path: "current.basis"]?.stringValue == "recorded")
            #expect(ledger[path: "current.originalTransactionId"]?.stringValue == id)
            #expect(ledger[path: "current.appAccountToken"] == nil)
            let record = try await harness.askRefund(id, .legal)
            #expect(record["consentBasis"]?.stringValue == "recorded")
            #expect(record["state"]?.stringValue == "sent")
            #expect(record[path: "record.consent.originalTransactionId"]?.stringValue == id)
            #expect(await harness.receivedBodies(id).count == 1)
            let refused = try await harness.request(.PUT, "/v1/subscriptions/not%20an%20id/consent", body: Data(#"{"consented":true,"source":"x"}"#.utf8))
            #expect(refused.status == 400 && refused.body.jsonObject[path: "error.code"]?.stringValue == "INVALID_PARAMETER")
        }
    }

    @Test func badConsentAndFactsAreRefusedWithJSONErrors() async throws {
        try await RouterHarness.with { harness in
            let consent = "/v1/customers/\(UUID().uuidString)/consent"
            let cases: [(String, String, Int, String)] = [
                (consent, #"{"source":"app"}"#, 400, "MISSING_FIELD"),
                (consent, #"{"consented":"yes","source":"app"}"#, 400, "INVALID_FIELD"),
                (consent, #"{"consented":true,"source":"app","extra":1}"#, 400, "UNKNOWN_FIELD"),
                (consent, #"{"consented":true,"source":"app","at":"yesterday"}"#, 400, "INVALID_FIELD"),
                (consent, #"{"consented":true,"source":"app","at":99999999999999}"#, 422, "INVALID_FIELD"),
                (consent, "not json", 400, "MALFORMED_JSON"),
                ("/v1/customers/not-a-uuid/consent", #"{"consented":true,"source":"app"}"#, 400, "INVALID_PARAMETER"),
                ("/v1/transactions/1/facts", #"{"deliveryStatus":"LOST"}"#, 422, "INVALID_FIELD"),
                ("/v1/transactions/1/facts", #"{"consumptionPercentage":100001}"#, 422, "INVALID_FIELD"),
                ("/v1/transactions/1/facts", #"{"consumptionPercentage":-1}"#, 422, "INVALID_FIELD"),
                ("/v1/transactions/1/facts", #"{"consumptionPercentage":50.5}"#, 400, "INVALID_FIELD"),
                ("/v1/transactions/1/facts", #"{"sessionsSincePurchase":-2}"#, 422, "INVALID_FIELD"),
                ("/v1/transactions/1/facts", #"{"deliveryStatus":"DELIVERED","typo":true}"#, 400, "UNKNOWN_FIELD"),
                ("/v1/transactions/abc/facts", #"{}"#, 400, "INVALID_PARAMETER"),
                ("/v1/transactions/1/facts", "[1]", 400, "MALFORMED_JSON"),
            ]
            for (path, body, status, code) in cases {
                let (answered, response) = try await harness.request(.PUT, path, body: Data(body.utf8))
                #expect(answered == status, "\(path) \(body)")
                #expect(response.jsonObject[path: "error.code"]?.stringValue == code, "\(path) \(body)")
            }
            #expect(try await harness.request(.GET, "/v1/transactions/1/facts").status == 404)
            let wrongType = try await harness.request(.PUT, "/v1/transactions/1/facts", body: Data("{}".utf8), contentType: "text/plain")
            #expect(wrongType.status == 415)
            let huge = Data(#"{"deliveryStatus":"\#(String(repeating: "x", count: 10_000))"}"#.utf8)
            #expect(try await harness.request(.PUT, "/v1/transactions/1/facts", body: huge).status == 413)
            #expect(try await harness.request(.PUT, "/v1/transactions/1/facts", body: Data("{}".utf8), token: nil).status == 401)
            #expect(try await harness.request(.GET, "/v1/consumption/1", token: "wrong").status == 401)
        }
    }

    @Test func factsRoundTripAndUnknownRecords() async throws {
        try await ServiceHarness.with(.sqlite) { harness in
            let body = #"{"deliveryStatus":"UNDELIVERED_OTHER","consumptionPercentage":0,"sampleContentProvided":true,"sessionsSincePurchase":2}"#
            try await harness.reportFacts("123", body)
            let facts = try await harness.request(.GET, "/v1/transactions/123/facts").body.jsonObject
            #expect(facts["deliveryStatus"]?.stringValue == "UNDELIVERED_OTHER")
            #expect(facts["consumptionPercentage"]?.integerValue == 0)
            #expect(facts["sampleContentProvided"]?.boolValue == true)
            #expect(facts["sessionsSincePurchase"]?.integerValue == 2)
            #expect(try await harness.request(.GET, "/v1/consumption/123").status == 404)
            let list = try await harness.request(.GET, "/v1/consumption?limit=5").body.jsonObject
            #expect(list["requests"]?.arrayValue?.isEmpty == true)
        }
    }
}
