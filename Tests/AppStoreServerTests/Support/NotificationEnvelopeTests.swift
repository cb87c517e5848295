import Foundation
import Testing

import AppStoreServer

/// The intake's byte scan of `{"signedPayload":"…"}` must read exactly what a JSON decoder reads,
/// and hand everything else to the decoder.
@Suite struct NotificationEnvelopeTests {
    private static let jws = "eyJhbGciOiJFUzI1NiJ9.eyJub3RpZmljYXRpb25UeXBlIjoiVEVTVCJ9.c2lnbmF0dXJlLV8"

    /// What `JSONDecoder` makes of `body`: the payload, or the failure the service reports.
    private static func decoded(_ body: String) -> Result<String, NotificationEnvelope.Failure> {
        struct Envelope: Decodable { var signedPayload: String? }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(body.utf8)) else { return .failure(.malformed) }
        guard let payload = envelope.signedPayload, !payload.isEmpty else { return .failure(.missingSignedPayload) }
        return .success(payload)
    }

    private static func read(_ body: String) -> Result<String, NotificationEnvelope.Failure> {
        Result { () throws(NotificationEnvelope.Failure) -> String in
            try NotificationEnvelope.signedPayload(in: Data(body.utf8))
        }
    }

    @Test("Apple's shape, with any JSON whitespace, is read by the byte scan")
    func compactShapes() {
        let bodies = [
            #"{"signedPayload":"\#(Self.jws)"}"#,
            #"{ "signedPayload" : "\#(Self.jws)" }"#,
            "\n\t{\r\n  \"signedPayload\":\n\"\(Self.jws)\"\n}\n ",
        ]
        for body in bodies {
            #expect(NotificationEnvelope.compactSignedPayload(in: Data(body.utf8)) == Self.jws, "\(body)")
            #expect(Self.read(body) == .success(Self.jws))
        }
    }

    @Test("every other body gets the decoder's answer")
    func otherBodiesAgreeWithTheDecoder() {
        let bodies = [
            "", " ", "{}", "[]", "null", "\"x\"", "{", "}", #"{"signedPayload"}"#, #"{"signedPayload":}"#,
            #"{"signedPayload":""}"#, #"{"signedPayload":null}"#, #"{"signedPayload":42}"#, #"{"signedPayload":["a"]}"#,
            #"{"signedPayload":"a.b.c"} x"#, #"{"signedPayload":"a.b.c"}}"#, #"{"signedPayload":"a.b.c",}"#,
            #"{"signedPayload":"a.b.c"#, #"{"signedPayload":"a\/b.c"}"#, #"{"signedPayload":"a\u002eb"}"#,
            #"{"signedPayload":"a=b"}"#, #"{"signedPayload":"a b"}"#, #"{"signedPayload":"é.b"}"#,
            #"{"signedPayload":"a.b","other":1}"#, #"{"other":1,"signedPayload":"a.b"}"#, #"{"SignedPayload":"a.b"}"#,
            #"{"signedPayload ":"a.b"}"#, #"{'signedPayload':'a.b'}"#, #"{"signedPayload":"a.b"}"# + "\u{0B}",
            "\u{FEFF}" + #"{"signedPayload":"a.b"}"#, #"{"signedPayload":"a.b"}"# + "\0",
        ]
        for body in bodies {
            #expect(Self.read(body) == Self.decoded(body), "\(body.debugDescription)")
        }
    }

    @Test("random edits of Apple's shape: scan and decoder never disagree")
    func mutatedBodies() {
        var generator = SystemRandomNumberGenerator()
        let base = Array(#"{"signedPayload":"\#(Self.jws)"}"#.utf8)
        let alphabet = Array(#" {}[]":,\.aZ09-_=/"#.utf8) + [0x00, 0x0A, 0x7F, 0xC3, 0xA9]
        for _ in 0..<2_000 {
            var bytes = base
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[position] = alphabet.randomElement(using: &generator)!
                case 1: bytes.insert(alphabet.randomElement(using: &generator)!, at: position)
                default: if bytes.count > 1 { bytes.remove(at: position) }
                }
            }
            let data = Data(bytes)
            let read = Result { () throws(NotificationEnvelope.Failure) -> String in
                try NotificationEnvelope.signedPayload(in: data)
            }
            struct Envelope: Decodable { var signedPayload: String? }
            let expected: Result<String, NotificationEnvelope.Failure>
            if let envelope = try? JSONDecoder().decode(Envelope.self, from: data) {
                if let payload = envelope.signedPayload, !payload.isEmpty { expected = .success(payload) } else {
                    expected = .failure(.missingSignedPayload)
                }
            } else {
                expected = .failure(.malformed)
            }
            #expect(read == expected, "\(String(decoding: bytes, as: UTF8.self).debugDescription)")
        }
    }
}
