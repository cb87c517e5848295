import AppStoreServer
import Foundation
import RuleEngine
import Testing

@testable import VerdictService

/// Decisions type their facts from the service's JSON document directly; the tree must be the one
/// a JSON text round trip gives, or a rule would see other facts than `verdict rules explain`.
@Suite struct FactDataConversionTests {
    private static func roundTrip(_ value: JSONValue) throws -> FactData {
        try FactData(json: try JSONEncoder().encode(value))
    }

    @Test("the direct conversion equals a JSON text round trip")
    func sameAsRoundTrip() throws {
        let values: [JSONValue] = [
            .null, .bool(true), .bool(false), .integer(0), .integer(-42), .integer(.max), .integer(.min),
            .number(5), .number(-0.0), .number(2.5), .number(-1e-9), .number(1e300), .number(9.007_199_254_740_993e15),
            .string(""), .string("9.99 USD"), .string("é \u{0} \"quoted\""),
            .array([]), .array([.integer(1), .string("a"), .null, .array([.number(0.5)])]),
            .object([:]),
            .object(["event": .object(["type": .string("EXPIRED"), "signedDate": .integer(1_797_336_000_000)]),
                     "customer": .object(["attributes": .object(["score": .number(3), "ratio": .number(0.25)])])]),
        ]
        for value in values {
            #expect(FactData(value) == (try Self.roundTrip(value)), "\(value)")
        }
    }

    @Test("a real facts document types the same either way")
    func realDocument() throws {
        let document = JSONValue.object([
            "event": .object(["type": .string("DID_CHANGE_RENEWAL_STATUS"), "subtype": .string("AUTO_RENEW_DISABLED"),
                              "environment": .string("PRODUCTION"), "signedDate": .integer(1_797_336_000_000)]),
        ])
        let direct = try Facts(FactData(document))
        let parsed = try Facts(json: try JSONEncoder().encode(document))
        #expect(direct == parsed)
    }
}
