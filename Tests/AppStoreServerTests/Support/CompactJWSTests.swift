import Foundation
import Testing

import AppStoreServer

/// The compact JWS parser and the Base64URL codec (both on the verification hot path).
@Suite struct CompactJWSTests {
    private func decode(_ text: String) -> Data? {
        Base64URL.decode(text)
    }

    @Test func decodingRoundTripsEveryLengthAndByte() {
        var generator = SystemRandomNumberGenerator()
        for length in 1...200 {
            let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            let encoded = Base64URL.encode(bytes)
            #expect(decode(encoded) == bytes, "length \(length)")
            let padded = encoded + String(repeating: "=", count: (4 - encoded.utf8.count % 4) % 4)
            #expect(decode(padded) == bytes, "padded length \(length)")
        }
        #expect(decode("-_8") == Data([0xFB, 0xFF]))
    }

    @Test func standardBase64CharactersAreRejected() {
        #expect(decode("ab+c") == nil)
        #expect(decode("ab/c") == nil)
    }

    @Test func impossibleLengthsAndStrayPaddingAreRejected() {
        #expect(decode("") == nil)
        #expect(decode("abcde") == nil)
        #expect(decode("ab=c") == nil)
        #expect(decode("abc==") == nil)
        #expect(decode("a===") == nil)
        #expect(decode("ab c") == nil)
    }

    @Test func splittingKeepsTheSigningInputAsTransmitted() throws {
        let parts = try #require(CompactJWS("eyJhIjoxfQ.eyJiIjoyfQ.AAEC"))
        #expect(parts.header == Data(#"{"a":1}"#.utf8))
        #expect(parts.payload == Data(#"{"b":2}"#.utf8))
        #expect(parts.signature == Data([0, 1, 2]))
        #expect(parts.signingInput == Data("eyJhIjoxfQ.eyJiIjoyfQ".utf8))
        #expect(parts.headerSegment == "eyJhIjoxfQ")
    }

    @Test func anythingButThreeNonEmptySegmentsIsRejected() {
        for text in ["eyJhIjoxfQ.eyJiIjoyfQ", "eyJhIjoxfQ.eyJiIjoyfQ.AAEC.AAEC", ".eyJiIjoyfQ.AAEC", "eyJhIjoxfQ..AAEC",
                     "eyJhIjoxfQ.eyJiIjoyfQ.", "..", ""] {
            #expect(CompactJWS(text) == nil, "\(text)")
        }
    }
}
