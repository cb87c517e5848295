import Foundation

/// Configure Default Message (`PUT /inApps/v1/messaging/default/{productId}/{locale}`), and Get
/// Default Message's answer: the message shown for a product and locale when the realtime answer
/// is late, missing or malformed (after the App Store Connect retention message).
public struct DefaultConfigurationRequest: Codable, Hashable, Sendable {
    public var messageIdentifier: UUID

    public init(messageIdentifier: UUID) {
        self.messageIdentifier = messageIdentifier
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: RetentionCodingKeys.self)
        messageIdentifier = try container.decodeUUID(.messageIdentifier)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: RetentionCodingKeys.self)
        try container.encode(messageIdentifier.uuidString.lowercased(), forKey: .messageIdentifier)
    }
}
