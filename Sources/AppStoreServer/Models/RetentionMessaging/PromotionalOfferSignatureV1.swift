import Foundation

/// A legacy (V1) promotional-offer signature as a realtime answer carries it: the Base64 DER
/// signature and the values it signs. UUIDs are written in lower case, as they were signed.
public struct PromotionalOfferSignatureV1: Codable, Hashable, Sendable {
    public var encodedSignature: String
    public var productId: String
    public var nonce: UUID
    /// Milliseconds since 1970 when the signature was made.
    public var timestamp: Int64
    public var keyId: String
    public var offerIdentifier: String
    public var appAccountToken: UUID?

    public init(
        encodedSignature: String, productId: String, nonce: UUID, timestamp: Int64, keyId: String,
        offerIdentifier: String, appAccountToken: UUID? = nil
    ) {
        self.encodedSignature = encodedSignature
        self.productId = productId
        self.nonce = nonce
        self.timestamp = timestamp
        self.keyId = keyId
        self.offerIdentifier = offerIdentifier
        self.appAccountToken = appAccountToken
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: RetentionCodingKeys.self)
        encodedSignature = try container.decode(String.self, forKey: .encodedSignature)
        productId = try container.decode(String.self, forKey: .productId)
        nonce = try container.decodeUUID(.nonce)
        timestamp = try container.decode(Int64.self, forKey: .timestamp)
        keyId = try container.decode(String.self, forKey: .keyId)
        offerIdentifier = try container.decode(String.self, forKey: .offerIdentifier)
        appAccountToken = try container.contains(.appAccountToken) ? container.decodeUUID(.appAccountToken) : nil
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: RetentionCodingKeys.self)
        try container.encode(encodedSignature, forKey: .encodedSignature)
        try container.encode(productId, forKey: .productId)
        try container.encode(nonce.uuidString.lowercased(), forKey: .nonce)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(keyId, forKey: .keyId)
        try container.encode(offerIdentifier, forKey: .offerIdentifier)
        try container.encodeIfPresent(appAccountToken?.uuidString.lowercased(), forKey: .appAccountToken)
    }
}
