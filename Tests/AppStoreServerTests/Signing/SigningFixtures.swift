import Testing
import AppStoreServer
import Crypto
import Foundation

/// Parent suite of the signing tests, so `swift test --filter Signing` selects all of them.
@Suite("Signing") enum SigningTests {}

/// Apple's In-App Purchase test key and V1 vectors read from the test bundle.
enum SigningFixtures {
    static func url(_ name: String) -> URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures").appendingPathComponent(name)
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: url(name), encoding: .utf8)
    }

    static func privateKey() throws -> P256.Signing.PrivateKey {
        try SigningKey.load(contentsOf: url("testSigningKey.p8"))
    }

    static func publicKey() throws -> P256.Signing.PublicKey {
        try P256.Signing.PublicKey(pemRepresentation: text("testSigningKey.pub.pem"))
    }

    /// A fixed instant (2023-10-24T12:01:40Z) for deterministic `iat` / timestamps.
    static let fixedDate = Date(timeIntervalSince1970: 1_698_148_900.75)

    static let fixedNonce = UUID(uuidString: "20FBA8A0-2B80-4A7D-A17F-85C1854727F8")!

    /// Decodes a compact JWS's header or payload as a JSON object.
    static func jsonObject(_ data: Data) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Signs arbitrary header / payload JSON with the test key, for hostile verifier tests.
    static func signRaw(header: String, payload: String, key: P256.Signing.PrivateKey? = nil) throws -> String {
        try CompactJWS.signES256(header: Data(header.utf8), payload: Data(payload.utf8), key: key ?? privateKey())
    }
}

/// One entry of `promotional-offer-v1-vectors.json`.
struct PromotionalOfferV1Vector: Decodable, Sendable, CustomTestStringConvertible {
    let bundleId: String
    let keyId: String
    let productId: String
    let offerId: String
    let appAccountToken: String
    let nonce: String
    let timestamp: Int64
    let signature: String
    let payloadUTF8Hex: String
    let payloadSHA256: String

    var testDescription: String { "\(bundleId)/\(offerId)/token=\(appAccountToken.isEmpty ? "empty" : appAccountToken)" }

    private struct File: Decodable { let vectors: [PromotionalOfferV1Vector] }

    static let all: [PromotionalOfferV1Vector] = {
        let data = try! Data(contentsOf: SigningFixtures.url("promotional-offer-v1-vectors.json"))
        return try! JSONDecoder().decode(File.self, from: data).vectors
    }()
}

extension Data {
    /// Lowercase hex of the bytes.
    var signingTestHex: String { map { String(format: "%02x", $0) }.joined() }
}

extension Data {
    /// Parses lowercase or uppercase hex; nil for odd length or a non-hex character.
    init?(signingTestHex hexString: String) {
        guard hexString.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = hexString.startIndex
        while index < hexString.endIndex {
            let next = hexString.index(index, offsetBy: 2)
            guard let byte = UInt8(hexString[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
