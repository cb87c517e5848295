import Crypto
import Foundation

/// A JWS in compact serialisation (`header.payload.signature`), split and Base64URL-decoded.
///
/// Parsing checks only the shape: three segments, each valid Base64URL. What the header must say
/// and whether the signature holds is the verifier's business.
public struct CompactJWS: Sendable {
    /// The decoded protected header (JSON bytes).
    public let header: Data
    /// The decoded payload (JSON bytes for everything Apple signs).
    public let payload: Data
    /// The decoded signature (for ES256, the 64-byte JOSE `r‖s`).
    public let signature: Data
    /// The bytes the signature covers: the ASCII of `header.payload` as transmitted.
    public let signingInput: Data

    /// Splits and decodes `text`; returns nil unless it is three Base64URL segments.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty,
              let header = Base64URL.decode(parts[0]),
              let payload = Base64URL.decode(parts[1]),
              let signature = Base64URL.decode(parts[2])
        else { return nil }
        self.header = header
        self.payload = payload
        self.signature = signature
        self.signingInput = Data("\(parts[0]).\(parts[1])".utf8)
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
