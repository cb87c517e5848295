import AppStoreServer
import Crypto
import Foundation

/// Signs payloads the way the App Store does: compact JWS, ES256, with the certificate chain in
/// the `x5c` header as standard Base64 DER, leaf first.
public struct AppStoreSigner: Sendable {
    /// The key that signs (the leaf's private key).
    public let privateKey: P256.Signing.PrivateKey
    /// The `x5c` header value: standard Base64 of each DER certificate, leaf first.
    public let x5c: [String]

    /// A signer using `privateKey` and the DER certificates `certificateChain` (leaf, intermediate, root).
    public init(privateKey: P256.Signing.PrivateKey, certificateChain: [Data]) {
        self.privateKey = privateKey
        self.x5c = certificateChain.map { $0.base64EncodedString() }
    }

    /// The protected header this signer writes: `{"alg":"ES256","x5c":[…]}`.
    public var headerJSON: Data {
        get throws {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return try encoder.encode(Header(alg: "ES256", x5c: x5c))
        }
    }

    /// Encodes `payload` with `AppStoreJSON.encoder()` (dates as integer milliseconds) and signs it.
    public func sign(_ payload: some Encodable) throws -> String {
        try sign(payloadJSON: AppStoreJSON.encoder().encode(payload), headerJSON: nil)
    }

    /// Signs exactly the given bytes. `headerJSON` replaces the protected header verbatim (nil
    /// means this signer's ``headerJSON``), so hostile tests can sign anything under any header.
    public func sign(payloadJSON: Data, headerJSON: Data? = nil) throws -> String {
        try CompactJWS.signES256(header: headerJSON ?? self.headerJSON, payload: payloadJSON, key: privateKey)
    }

    /// Same as ``sign(payloadJSON:headerJSON:)`` (the spelling used in the shared contracts).
    public func sign(payloadJSON: Data, header: Data?) throws -> String {
        try sign(payloadJSON: payloadJSON, headerJSON: header)
    }

    private struct Header: Encodable {
        let alg: String
        let x5c: [String]
    }
}
