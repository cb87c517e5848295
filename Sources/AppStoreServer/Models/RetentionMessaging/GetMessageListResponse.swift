import Foundation

/// Get Message List (`GET /inApps/v1/messaging/message/list`): every uploaded message with its
/// review state.
public struct GetMessageListResponse: Codable, Hashable, Sendable {
    /// One uploaded message.
    public struct Item: Codable, Hashable, Sendable {
        public var messageIdentifier: UUID?
        public var messageState: ReviewState?

        public init(messageIdentifier: UUID?, messageState: ReviewState?) {
            self.messageIdentifier = messageIdentifier
            self.messageState = messageState
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            messageIdentifier = try container.decodeIfPresent(String.self, forKey: .messageIdentifier).flatMap(UUID.init(uuidString:))
            messageState = try container.decodeIfPresent(ReviewState.self, forKey: .messageState)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(messageIdentifier?.uuidString.lowercased(), forKey: .messageIdentifier)
            try container.encodeIfPresent(messageState, forKey: .messageState)
        }

        private enum CodingKeys: String, CodingKey { case messageIdentifier, messageState }
    }

    public var messageIdentifiers: [Item]?

    public init(messageIdentifiers: [Item]? = nil) {
        self.messageIdentifiers = messageIdentifiers
    }
}
