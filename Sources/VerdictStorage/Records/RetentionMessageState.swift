/// Apple's review state of one retention message text or image, as Verdict last read it.
public struct RetentionMessageState: Sendable, Equatable {
    /// A message text, or an image Apple reviews on its own.
    public enum Kind: String, Sendable {
        case message, image
    }

    /// Apple's message (or image) identifier (a lowercase UUID).
    public var messageIdentifier: String
    /// The bundle's message id and the locale of the text; for an image, its id and its size
    /// (`FULL_SIZE`, `BULLET_POINT`).
    public var messageId: String
    public var locale: String
    public var kind: Kind
    /// `PENDING`, `APPROVED`, `REJECTED` (or a state Apple adds later, kept as sent).
    public var state: String
    /// When Verdict read it (UNIX milliseconds).
    public var checkedAt: Int64

    public init(messageIdentifier: String, messageId: String, locale: String, state: String, checkedAt: Int64,
                kind: Kind = .message) {
        self.kind = kind
        self.messageIdentifier = messageIdentifier
        self.messageId = messageId
        self.locale = locale
        self.state = state
        self.checkedAt = checkedAt
    }
}
