import Foundation

/// `promotionalOffer`: a message with a promotional offer the developer signed, either as a
/// JWS (V2, recommended; its `transactionId` claim must be the request's
/// `originalTransactionId`) or as a legacy V1 signature — never both. The message carries no image.
public struct RealtimePromotionalOffer: Codable, Hashable, Sendable {
    /// The signature, in one of its two forms.
    public enum Signature: Hashable, Sendable {
        /// A compact JWS with `aud` `promotional-offer` (``PromotionalOfferV2SignatureCreator``).
        case v2(String)
        /// A legacy signature with the values it signs.
        case v1(PromotionalOfferSignatureV1)
    }

    public var messageIdentifier: UUID
    public var signature: Signature

    public init(messageIdentifier: UUID, signature: Signature) {
        self.messageIdentifier = messageIdentifier
        self.signature = signature
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: RetentionCodingKeys.self)
        messageIdentifier = try container.decodeUUID(.messageIdentifier)
        let v2 = try container.decodeIfPresent(String.self, forKey: .promotionalOfferSignatureV2)
        let v1 = try container.decodeIfPresent(PromotionalOfferSignatureV1.self, forKey: .promotionalOfferSignatureV1)
        switch (v2, v1) {
        case (let jws?, nil): signature = .v2(jws)
        case (nil, let legacy?): signature = .v1(legacy)
        default:
            throw DecodingError.dataCorrupted(.init(
                codingPath: container.codingPath,
                debugDescription: "exactly one of promotionalOfferSignatureV2 and promotionalOfferSignatureV1"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: RetentionCodingKeys.self)
        try container.encode(messageIdentifier.uuidString.lowercased(), forKey: .messageIdentifier)
        switch signature {
        case .v2(let jws): try container.encode(jws, forKey: .promotionalOfferSignatureV2)
        case .v1(let legacy): try container.encode(legacy, forKey: .promotionalOfferSignatureV1)
        }
    }
}
