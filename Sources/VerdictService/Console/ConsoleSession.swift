import Crypto
import Foundation
import Hummingbird
import VerdictStorage

/// A signed-in console session: the role of the token it was opened with, the apps it may see
/// (that token's, among the configured ones) and the token its forms carry against cross-site
/// request forgery.
struct ConsoleSession: Sendable {
    var role: APIToken.Role
    /// The apps the session may see, in configuration order (never empty): its token's apps, or
    /// every app for a token without apps (``RequestApps``, as for the API).
    var apps: [AppContext]
    var csrfToken: String
    var idDigest: String

    /// Whether the session sees more than one app: its pages then name the app they show
    /// (``ConsoleLinks``), and the layout has an app switcher and the All apps page.
    var hasSeveralApps: Bool { apps.count > 1 }

    /// Whether `presented` is this session's form token (compared in constant time).
    func accepts(csrf presented: String?) -> Bool {
        guard let presented else { return false }
        return ConsoleSessions.constantTimeEqual(presented, csrfToken)
    }
}

/// Opens, finds and ends console sessions. The browser holds a random session id in an HttpOnly,
/// SameSite=Strict cookie (`Secure` when `VERDICT_PUBLIC_URL` is https); the database holds only
/// its SHA-256 digest, its binding to the token it was opened with (an HMAC keyed by the session
/// id: ``TokenDirectory/sessionBinding(of:sessionId:)``), that token's role and apps at sign-in
/// (for the record), and the session's form token.
///
/// A session follows its token: each request finds the token's role and apps as configured now,
/// so a token given fewer apps or a lesser role narrows its open sessions at the next start, and a
/// token removed (or given the `app` role) ends them: the first request of such a session deletes it.
struct ConsoleSessions: Sendable {
    static let cookieName = "verdict_session"
    /// The form token of the sign-in form, before there is a session (double-submit: cookie and field).
    static let signInCookieName = "verdict_sign_in"

    let store: any ConsoleSessionStore
    /// The configured apps, among which a session's are found.
    let directory: AppDirectory
    /// The configured tokens, through which a session finds what its token grants now.
    let tokens: TokenDirectory
    let lifetime: Duration
    let secureCookies: Bool
    let now: @Sendable () -> Date

    /// Opens a session for `token`, which grants `grant` (its role and apps); returns it and the
    /// cookie that carries it.
    func open(_ grant: TokenDirectory.Grant, token: String) async throws -> (ConsoleSession, Cookie) {
        let id = Self.randomToken()
        let session = ConsoleSession(
            role: grant.role, apps: try apps(granted: grant.apps), csrfToken: Self.randomToken(), idDigest: Self.digest(id))
        let at = now().appStoreMilliseconds
        let seconds = Int(lifetime.components.seconds)
        try await store.createConsoleSession(ConsoleSessionRecord(
            idDigest: session.idDigest, role: grant.role.rawValue, csrfToken: session.csrfToken, createdAt: at,
            expiresAt: at + Int64(seconds) * 1000, apps: grant.apps.map { $0.sorted() },
            tokenBinding: TokenDirectory.sessionBinding(of: token, sessionId: id)))
        return (session, cookie(Self.cookieName, id, maxAge: seconds))
    }

    /// The unexpired session the request's cookie names, with its token's role and apps as
    /// configured now; nil without one. A session whose token is no longer configured, no longer
    /// opens the console, or acts for no configured app is ended (deleted) and nil.
    func session(of request: Request) async throws -> ConsoleSession? {
        guard let id = request.cookies[Self.cookieName]?.value, !id.isEmpty, id.count <= 100,
              let record = try await store.consoleSession(idDigest: Self.digest(id), now: now().appStoreMilliseconds)
        else { return nil }
        guard let grant = record.tokenBinding.flatMap({ tokens.grant(sessionBinding: $0, sessionId: id) }), grant.opensConsole,
              let apps = try? apps(granted: grant.apps)
        else {
            _ = try? await store.deleteConsoleSession(idDigest: record.idDigest)
            return nil
        }
        return ConsoleSession(role: grant.role, apps: apps, csrfToken: record.csrfToken, idDigest: record.idDigest)
    }

    /// The configured apps a grant reaches (nil: every app), as the API finds them; throws when
    /// it reaches none.
    func apps(granted: Set<String>?) throws -> [AppContext] {
        let apps = try RequestApps(directory, grant: granted, named: nil).apps
        guard !apps.isEmpty else { throw ServiceError.notFound("none of the session's apps is configured") }
        return apps
    }

    /// Ends `session`; returns the cookie that clears it in the browser.
    func close(_ session: ConsoleSession) async throws -> Cookie {
        try await store.deleteConsoleSession(idDigest: session.idDigest)
        return cookie(Self.cookieName, "", maxAge: 0)
    }

    /// A console cookie: HttpOnly, SameSite=Strict, path /console, Secure behind https.
    func cookie(_ name: String, _ value: String, maxAge: Int) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/console", secure: secureCookies, httpOnly: true, sameSite: .strict)
    }

    /// 32 random bytes, base64url without padding.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func digest(_ id: String) -> String {
        SHA256.hash(data: Data(id.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Whether two strings are equal, in time independent of where they differ.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = SHA256.hash(data: Data(a.utf8))
        let right = SHA256.hash(data: Data(b.utf8))
        var difference: UInt8 = 0
        for (x, y) in zip(left, right) { difference |= x ^ y }
        return difference == 0
    }
}
