import Foundation

/// What the engine asks about a message before answering with it: whether Apple approved that
/// exact text (``RetentionMessages/Localized/identifier``) and each image it shows (Apple reviews
/// images on their own; ``RetentionMessages/Image/identifier``). A rule whose message is not
/// approved falls through to the next rule. The service answers from the review states it last
/// read from Apple; rule tests and replays use ``AllMessagesApproved``.
public protocol RetentionMessageStates: Sendable {
    /// Whether Apple approved the message or image with this identifier.
    func isApproved(_ identifier: UUID) -> Bool
}

extension RetentionMessageStates {
    /// The first of `text` and its images that Apple has not approved: nil when all are.
    public func unapproved(_ text: RetentionMessages.Localized) -> String? {
        if !isApproved(text.identifier) { return "is not approved by Apple" }
        let images = ([text.image] + text.bulletPoints.map(\.image)).compactMap { $0 }
        return images.first { !isApproved($0.identifier) }.map { "shows image \($0.id), not approved by Apple" }
    }
}

/// Every message counts as approved (rule tests, replays, explanations).
public struct AllMessagesApproved: RetentionMessageStates {
    public init() {}
    public func isApproved(_ messageIdentifier: UUID) -> Bool { true }
}

/// Exactly the messages given are approved.
public struct ApprovedMessages: RetentionMessageStates {
    public let approved: Set<UUID>
    public init(_ approved: Set<UUID>) { self.approved = approved }
    public func isApproved(_ messageIdentifier: UUID) -> Bool { approved.contains(messageIdentifier) }
}
