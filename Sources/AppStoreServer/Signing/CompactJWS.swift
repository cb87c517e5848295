import Crypto
import Foundation

/// A JWS in compact serialisation (`header.payload.signature`), split and Base64URL-decoded.
///
/// Parsing checks only the shape — exactly three non-empty Base64URL segments — in one pass over
/// the UTF-8 bytes (it is on the verification hot path). What the header must say and whether the
/// signature holds is the verifier's business.
public struct CompactJWS: Sendable {
    /// The protected header exactly as transmitted (Base64URL text).
    public let headerSegment: String
    /// The decoded protected header (JSON bytes).
    public let header: Data
    /// The decoded payload (JSON bytes for everything Apple signs).
    public let payload: Data
    /// The decoded signature (for ES256, the 64-byte JOSE `r‖s`).
    public let signature: Data
    /// The bytes the signature covers: the ASCII of `header.payload` as transmitted.
    public let signingInput: Data

    /// Splits and decodes `text`; returns nil unless it is three non-empty Base64URL segments.
    public init?(_ text: some StringProtocol) {
        var text = String(text)
        let parsed = text.withUTF8 { bytes -> (String, Data, Data, Data, Data)? in
            var firstDot = -1
            var secondDot = -1
            for index in bytes.indices where bytes[index] == UInt8(ascii: ".") {
                if firstDot < 0 {
                    firstDot = index
                } else if secondDot < 0 {
                    secondDot = index
                } else {
                    return nil
                }
            }
            guard secondDot > 0,
                  let header = Base64URL.decode(bytes: UnsafeBufferPointer(rebasing: bytes[..<firstDot])),
                  let payload = Base64URL.decode(bytes: UnsafeBufferPointer(rebasing: bytes[(firstDot + 1)..<secondDot])),
                  let signature = Base64URL.decode(bytes: UnsafeBufferPointer(rebasing: bytes[(secondDot + 1)...]))
            else { return nil }
            return (
                String(decoding: UnsafeBufferPointer(rebasing: bytes[..<firstDot]), as: UTF8.self),
                header, payload, signature, Data(UnsafeBufferPointer(rebasing: bytes[..<secondDot]))
            )
        }
        guard let (headerSegment, header, payload, signature, signingInput) = parsed else { return nil }
        self.headerSegment = headerSegment
        self.header = header
        self.payload = payload
        self.signature = signature
        self.signingInput = signingInput
    }

    /// Signs `payload` under `header` with ES256 and returns the compact serialisation.
    ///
    /// Both are given as JSON bytes so callers control exactly what is signed.
    public static func signES256(header: Data, payload: Data, key: P256.Signing.PrivateKey) throws -> String {
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }
}
