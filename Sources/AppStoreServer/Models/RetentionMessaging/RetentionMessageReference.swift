import Foundation

/// `message`: the identifier of an approved retention message.
public struct RetentionMessageReference: Codable, Hashable, Sendable {
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
