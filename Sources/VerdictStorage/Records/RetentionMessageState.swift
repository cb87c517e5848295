/// Apple's review state of one retention message text, as Verdict last read it.
public struct RetentionMessageState: Sendable, Equatable {
    /// Apple's message identifier (a lowercase UUID).
    public var messageIdentifier: String
    /// The bundle's message id and the locale of the text.
    public var messageId: String
    public var locale: String
    /// `PENDING`, `APPROVED`, `REJECTED` (or a state Apple adds later, kept as sent).
    public var state: String
    /// When Verdict read it (UNIX milliseconds).
    public var checkedAt: Int64

    public init(messageIdentifier: String, messageId: String, locale: String, state: String, checkedAt: Int64) {
        self.messageIdentifier = messageIdentifier
        self.messageId = messageId
        self.locale = locale
        self.state = state
        self.checkedAt = checkedAt
    }
}
