/// One signed-in console session: the token it was opened with (``tokenBinding``), its cross-site
/// request forgery token, and until when it is valid. The role and apps are the token's at sign-in,
/// kept for the record: each request takes the token's as configured now.
public struct ConsoleSessionRecord: Sendable, Equatable {
    /// SHA-256 of the session id the browser holds in its cookie (hex).
    public var idDigest: String
    /// `viewer` or `operator`: the token's role at sign-in (for the record).
    public var role: String
    /// The token every form of the session carries.
    public var csrfToken: String
    public var createdAt: Int64
    public var expiresAt: Int64
    /// The bundle ids of its token's apps at sign-in, sorted; nil: every app (for the record).
    public var apps: [String]?
    /// Binds the session to the API token it was opened with (hex HMAC-SHA256 of the token's
    /// SHA-256, keyed by the session id, which only the browser holds): each request finds the
    /// token's current role and apps through it. Nil only for a record bound to no token (never valid).
    public var tokenBinding: String?

    public init(
        idDigest: String, role: String, csrfToken: String, createdAt: Int64, expiresAt: Int64, apps: [String]? = nil,
        tokenBinding: String? = nil
    ) {
        self.idDigest = idDigest
        self.role = role
        self.csrfToken = csrfToken
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.apps = apps
        self.tokenBinding = tokenBinding
    }
}
