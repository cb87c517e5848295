import Foundation

/// The member names of the retention option objects.
enum RetentionCodingKeys: String, CodingKey {
    case messageIdentifier, productId, billingPlanType, promotionalOfferSignatureV2, promotionalOfferSignatureV1
    case encodedSignature, nonce, timestamp, keyId, offerIdentifier, appAccountToken
}

extension KeyedDecodingContainer where Key == RetentionCodingKeys {
    /// A UUID written as a string (either case).
    func decodeUUID(_ key: Key) throws -> UUID {
        let text = try decode(String.self, forKey: key)
        guard let uuid = UUID(uuidString: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "\(key.stringValue) is not a UUID")
        }
        return uuid
    }
}
