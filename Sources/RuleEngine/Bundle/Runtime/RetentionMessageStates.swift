import Foundation

/// What the engine asks about a message before answering with it: whether Apple approved that
/// exact text (``RetentionMessages/Localized/identifier``). A rule whose message is not approved
/// falls through to the next rule. The service answers from the review states it last read from
/// Apple; rule tests and replays use ``AllMessagesApproved``.
public protocol RetentionMessageStates: Sendable {
    func isApproved(_ messageIdentifier: UUID) -> Bool
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
