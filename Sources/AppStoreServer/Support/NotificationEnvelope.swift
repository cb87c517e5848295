import Foundation

/// The body Apple POSTs, `{"signedPayload":"<JWS>"}`, read without a general JSON decoder when it
/// has exactly that shape.
///
/// The shape Apple and forwarders send — one key, a string of base64url characters and dots, any
/// JSON whitespace around the tokens — is read by a byte scan; anything else (escapes, other keys,
/// other types) goes through `JSONDecoder`, so both paths accept and refuse the same bodies. A body
/// that names a member twice is refused (``JSONDuplicateKeys``): the decoder would keep the first
/// `signedPayload`, a proxy in front of the service the last.
public enum NotificationEnvelope {
    /// Why a body has no usable signed payload.
    public enum Failure: Error, Equatable, Sendable {
        /// Not a JSON object, or `signedPayload` is not a string.
        case malformed
        /// A JSON object without a non-empty `signedPayload`.
        case missingSignedPayload
        /// An object of the body names this member more than once.
        case duplicateKey(String)
    }

    /// The `signedPayload` string of `body`.
    public static func signedPayload(in body: Data) throws(Failure) -> String {
        if let payload = compactSignedPayload(in: body) { return payload }
        if let name = JSONDuplicateKeys.firstDuplicate(in: body) { throw .duplicateKey(name) }
        struct Envelope: Decodable { var signedPayload: String? }
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: body)
        } catch {
            throw .malformed
        }
        guard let payload = envelope.signedPayload, !payload.isEmpty else { throw .missingSignedPayload }
        return payload
    }

    /// The payload when `body` is exactly `{"signedPayload":"<JWS characters>"}` give or take
    /// whitespace; nil for any other body.
    public static func compactSignedPayload(in body: Data) -> String? {
        body.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> String? in
            var scanner = ByteScanner(bytes: bytes)
            guard scanner.take("{"), scanner.take(#""signedPayload""#), scanner.take(":"), scanner.take("\"") else {
                return nil
            }
            let start = scanner.index
            while scanner.index < bytes.count, Self.isJWSByte(bytes[scanner.index]) { scanner.index += 1 }
            let end = scanner.index
            // The closing quote must follow the last JWS character directly (whitespace inside the
            // string is part of it).
            guard end > start, end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
            scanner.index += 1
            guard scanner.take("}"), scanner.atEnd else { return nil }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }

    /// base64url characters and the dots between a JWS's parts: none needs escaping in JSON.
    private static func isJWSByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }

    /// Reads expected tokens, skipping JSON whitespace before each.
    private struct ByteScanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func take(_ token: StaticString) -> Bool {
            skipWhitespace()
            let count = token.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != token.utf8Start[offset] { return false }
            index += count
            return true
        }

        var atEnd: Bool {
            mutating get {
                skipWhitespace()
                return index == bytes.count
            }
        }
    }
}
