/// One signed-in console session: who (the role of the token it was opened with), its
/// cross-site request forgery token, and until when it is valid.
public struct ConsoleSessionRecord: Sendable, Equatable {
    /// SHA-256 of the session id the browser holds in its cookie (hex).
    public var idDigest: String
    /// `viewer` or `operator`.
    public var role: String
    /// The token every form of the session carries.
    public var csrfToken: String
    public var createdAt: Int64
    public var expiresAt: Int64

    public init(idDigest: String, role: String, csrfToken: String, createdAt: Int64, expiresAt: Int64) {
        self.idDigest = idDigest
        self.role = role
        self.csrfToken = csrfToken
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
