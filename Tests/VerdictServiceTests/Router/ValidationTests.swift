import AppStoreServer
import Foundation
import HTTPTypes
import Testing
@testable import VerdictService
import VerdictRequests

/// Input refused as the OpenAPI document says, in-process: a repeated query parameter, `null` for
/// an optional member, a member a body does not read, every id of a decide request, lengths in
/// code points, impossible times.
@Suite struct ValidationTests {
    static let token = "5f4c6d1e-7a8b-4c9d-8e0f-1a2b3c4d5e6f"

    @Test func aQueryParameterGivenTwiceIsRefused() async throws {
        try await RouterHarness.with { harness in
            for path in ["/v1/jobs?limit=5&limit=6", "/v1/jobs?state=dead&state=done", "/v1/decisions?originalTransactionId=1&originalTransactionId=2",
                         "/v1/subscriptions/2000000000000001/offer?format=v1&format=jws", "/v1/consumption?limit=1&limit=1"] {
                let answer = try await harness.send(.get, path)
                #expect(answer.status == 400, "\(path)")
                #expect(answer.body.jsonObject[path: "error.message"]?.stringValue?.hasSuffix("must be given once") == true, "\(path)")
            }
        }
    }

    @Test func nullIsRefusedWhereAMemberMayOnlyBeLeftOut() async throws {
        try await RouterHarness.with { harness in
            let consent = "/v1/customers/\(Self.token)/consent", facts = "/v1/transactions/2000000000000001/facts"
            let cases: [(HTTPRequest.Method, String, String)] = [
                (.put, consent, #"{"consented":true,"source":"app","termsVersion":null}"#),
                (.put, consent, #"{"consented":true,"source":"app","at":null}"#),
                (.put, facts, #"{"final":null}"#),
                (.put, facts, #"{"deliveryStatus":null}"#),
                (.post, "/v1/offers/signatures", #"{"productId":"p","offerId":"o","format":null}"#),
                (.post, "/v1/offers/signatures", #"{"productId":"p","offerId":"o","appAccountToken":null}"#),
                (.post, "/v1/offers/decide", #"{"originalTransactionId":"1","trigger":null}"#),
                (.post, "/v1/offers/decide", #"{"originalTransactionId":null,"transactionId":"1"}"#),
                (.post, "/v1/offers/decide", #"{"originalTransactionId":"","transactionId":"1"}"#),
                (.post, "/v1/offers/decide", #"{"originalTransactionId":"1","appAccountToken":"nope"}"#),
                (.post, "/v1/offers/decide", #"{"originalTransactionId":1}"#),
            ]
            for (method, path, body) in cases {
                let answer = try await harness.send(method, path, body: Data(body.utf8))
                #expect(answer.status == 400, "\(path) \(body)")
                #expect(answer.body.jsonObject[path: "error.code"]?.stringValue == "INVALID_FIELD", "\(path) \(body)")
            }
        }
    }

    @Test func aMemberABodyDoesNotReadIsRefusedByName() async throws {
        try await RouterHarness.with { harness in
            let long = String(repeating: "x", count: 100)
            let cases: [(HTTPRequest.Method, String, String, String)] = [
                (.put, "/v1/customers/\(Self.token)/consent", #"{"consented":true,"source":"app","sorce":"typo"}"#, "sorce"),
                (.put, "/v1/subscriptions/2000000000000001/consent", #"{"consented":false,"source":"app","terms":"1"}"#, "terms"),
                (.put, "/v1/transactions/2000000000000001/facts", #"{"final":true,"deliveryStatuss":"DELIVERED"}"#, "deliveryStatuss"),
                (.post, "/v1/offers/signatures", #"{"productId":"p","offerId":"o","applicationUsername":"u"}"#, "applicationUsername"),
                (.post, "/v1/offers/signatures", #"{"offerId":"o","productID":"p"}"#, "productID"),
                (.post, "/v1/offers/decide", #"{"originalTransactionId":"1","triger":"IN_APP"}"#, "triger"),
                (.post, "/v1/offers/decide", #"{"z":1,"a":2,"originalTransactionId":"1"}"#, "a"),
                (.post, "/v1/offers/decide", #"{"originalTransactionId":"1","\#(long)":1}"#, String(long.prefix(64)) + "…"),
                (.post, "/v1/rules/replay", #"{"files":{"catalog.yaml":""},"sections":"offers"}"#, "sections"),
            ]
            for (method, path, body, member) in cases {
                let answer = try await harness.send(method, path, body: Data(body.utf8))
                #expect(answer.status == 400, "\(path) \(body)")
                #expect(answer.body.jsonObject[path: "error.code"]?.stringValue == "UNKNOWN_FIELD", "\(path) \(body)")
                #expect(answer.body.jsonObject[path: "error.message"]?.stringValue?.hasPrefix("'\(member)' is not a field here (fields: ") == true,
                        "\(path) \(body)")
            }
        }
    }

    @Test func lengthsCountCodePointsAndConsentBodiesMayBe16KiB() async throws {
        try await RouterHarness.with { harness in
            let consent = "/v1/customers/\(Self.token)/consent"
            // 101 × "e" + combining acute: 101 characters, 202 code points — over the 200 allowed.
            let combining = String(repeating: "e\u{301}", count: 101)
            let long = try await harness.send(.put, consent, body: try JSONEncoder().encode(["source": combining]).merging(#"{"consented":true}"#))
            #expect(long.status == 400 && long.body.jsonObject[path: "error.code"]?.stringValue == "INVALID_FIELD")
            // 200 non-BMP characters each, escaped: about 4.9 KB, a valid body.
            let astral = String(repeating: "\u{1F600}", count: 200)
            let escaped = astral.unicodeScalars.map { scalar in
                String(scalar).utf16.map { String(format: "\\u%04x", $0) }.joined()
            }.joined()
            let body = #"{"consented":true,"source":"\#(escaped)","termsVersion":"\#(escaped)"}"#
            #expect(body.utf8.count > 4096)
            #expect(try await harness.send(.put, consent, body: Data(body.utf8)).status == 200)
        }
    }

    @Test func impossibleTimesAreRefused() async throws {
        try await RouterHarness.with { harness in
            let consent = "/v1/customers/\(Self.token)/consent"
            for at in ["2000-02-30T00:00:00Z", "2001-02-29T00:00:00Z", "2020-01-01T24:00:00Z", "2020-01-01T10:60:00Z",
                       "2020-01-01T10:00:00+24:00", "2020-13-01T00:00:00Z", "yesterday", "2020-01-01 10:00:00Z"] {
                let answer = try await harness.send(.put, consent, body: Data(#"{"consented":true,"source":"app","at":"\#(at)"}"#.utf8))
                #expect(answer.status == 400, "\(at)")
            }
            for at in ["2024-02-29T12:00:00Z", "2020-01-01T10:00:00.250+01:00", "2020-01-01t10:00:00z"] {
                let answer = try await harness.send(.put, consent, body: Data(#"{"consented":true,"source":"app","at":"\#(at)"}"#.utf8))
                #expect(answer.status == 200, "\(at)")
            }
        }
    }

    @Test func internetDateTimesAreReadExactly() {
        #expect(InternetDateTime.parse("2026-11-24T09:30:00Z")?.appStoreMilliseconds == 1_795_512_600_000)
        #expect(InternetDateTime.parse("2026-11-24T10:30:00.250+01:00")?.appStoreMilliseconds == 1_795_512_600_250)
        #expect(InternetDateTime.parse("2026-11-24T04:00:00-05:30")?.appStoreMilliseconds == 1_795_512_600_000)
        #expect(InternetDateTime.parse("2026-11-31T00:00:00Z") == nil)
        #expect(InternetDateTime.parse("2026-11-24T09:30:60Z") == nil)
    }
}

private extension Data {
    /// This JSON object with `other`'s members added.
    func merging(_ other: String) throws -> Data {
        var object = try JSONSerialization.jsonObject(with: self) as? [String: Any] ?? [:]
        for (key, value) in try JSONSerialization.jsonObject(with: Data(other.utf8)) as? [String: Any] ?? [:] { object[key] = value }
        return try JSONSerialization.data(withJSONObject: object)
    }
}
