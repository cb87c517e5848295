/// One signed-in console session: who (the role of the token it was opened with, and the apps that
/// token acts for), its cross-site request forgery token, and until when it is valid.
public struct ConsoleSessionRecord: Sendable, Equatable {
    /// SHA-256 of the session id the browser holds in its cookie (hex).
    public var idDigest: String
    /// `viewer` or `operator`.
    public var role: String
    /// The token every form of the session carries.
    public var csrfToken: String
    public var createdAt: Int64
    public var expiresAt: Int64
    /// The bundle ids of the apps the session may see (its token's apps), sorted; nil: every app
    /// (a token without apps, and every session opened before sessions kept their apps).
    public var apps: [String]?
    /// SHA-256 of the API token the session was opened with (hex): each request finds the token's
    /// current role and apps through it. Nil only for a record that names no token (never valid).
    public var tokenDigest: String?

    public init(
        idDigest: String, role: String, csrfToken: String, createdAt: Int64, expiresAt: Int64, apps: [String]? = nil,
        tokenDigest: String? = nil
    ) {
        self.idDigest = idDigest
        self.role = role
        self.csrfToken = csrfToken
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.apps = apps
        self.tokenDigest = tokenDigest
    }
}
