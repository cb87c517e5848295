import Foundation

/// The answer to a realtime request: exactly one retention option, or none (`{}`), which makes
/// the App Store fall back to the App Store Connect retention message, then to the default
/// message configured through the API.
///
/// Encoding writes the one option's member (`message`, `alternateProduct` or `promotionalOffer`);
/// decoding refuses a body naming more than one. Apple's fourth option, `advancedCommerceInfo`,
/// is for Advanced Commerce subscriptions, which this package does not sell.
public enum RealtimeResponseBody: Codable, Hashable, Sendable {
    /// No option: let the App Store fall back.
    case fallback
    /// A text message (with an optional image).
    case message(RetentionMessageReference)
    /// A message suggesting another plan of the same subscription group.
    case alternateProduct(AlternateProduct)
    /// A message with a promotional offer signed by the developer.
    case promotionalOffer(RealtimePromotionalOffer)

    private enum CodingKeys: String, CodingKey {
        case message, alternateProduct, promotionalOffer, advancedCommerceInfo
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let present = container.allKeys
        guard present.count <= 1 else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [], debugDescription: "a realtime response carries exactly one option, this one \(present.count)"))
        }
        switch present.first {
        case nil: self = .fallback
        case .message?: self = .message(try container.decode(RetentionMessageReference.self, forKey: .message))
        case .alternateProduct?: self = .alternateProduct(try container.decode(AlternateProduct.self, forKey: .alternateProduct))
        case .promotionalOffer?: self = .promotionalOffer(try container.decode(RealtimePromotionalOffer.self, forKey: .promotionalOffer))
        case .advancedCommerceInfo?:
            throw DecodingError.dataCorruptedError(
                forKey: .advancedCommerceInfo, in: container, debugDescription: "advancedCommerceInfo is not supported")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .fallback: break
        case .message(let message): try container.encode(message, forKey: .message)
        case .alternateProduct(let product): try container.encode(product, forKey: .alternateProduct)
        case .promotionalOffer(let offer): try container.encode(offer, forKey: .promotionalOffer)
        }
    }

    /// The message every option shows (nil for ``fallback``).
    public var messageIdentifier: UUID? {
        switch self {
        case .fallback: nil
        case .message(let message): message.messageIdentifier
        case .alternateProduct(let product): product.messageIdentifier
        case .promotionalOffer(let offer): offer.messageIdentifier
        }
    }
}
