import Hummingbird

/// How a console request is let in: its session (one more request of the session's rate, when
/// the API's per-token limit is on), and for a page of one app, that app (``ConsoleScope``).
///
/// A page names its app with `?app=<bundle id>`; only the session's apps can be named, and any
/// other (another app's, or one not configured) answers 404 as an unknown console page does. A
/// session of one app needs no parameter. A session of several apps that names none is sent to
/// the All apps page, to choose.
struct ConsoleAccess: Sendable {
    static let signInPath = "/console/sign-in"
    /// The All apps page (sessions of several apps only).
    static let allAppsPath = "/console/apps"

    let sessions: ConsoleSessions
    /// The API's per-token limiter, applied per signed-in session (nil: no limit).
    let limiter: RateLimiter?

    /// The request's session once the limiter let one more of its requests through (429
    /// otherwise); nil without a session.
    func session(of request: Request) async throws -> ConsoleSession? {
        guard let session = try await sessions.session(of: request) else { return nil }
        if let limiter { try RateLimitMiddleware.take(limiter, key: "console:" + session.idDigest) }
        return session
    }

    /// Where a session lands: the All apps page when it sees several apps, else the Overview.
    static func home(of session: ConsoleSession) -> String {
        session.hasSeveralApps ? allAppsPath : ConsoleRenderer.pages[0].href
    }

    /// `body`'s answer for the page of one app that `request` asks for; sign-in without a
    /// session, the All apps page for a session of several apps that names none.
    func page(_ request: Request, _ body: (ConsoleScope) async throws -> Response) async throws -> Response {
        guard let session = try await session(of: request) else { return ConsoleRoutes.redirect(to: Self.signInPath) }
        guard let app = try Self.app(of: request, for: session) else { return ConsoleRoutes.redirect(to: Self.allAppsPath) }
        return try await body(ConsoleScope(session: session, app: app))
    }

    /// `body`'s answer for a page about every app of the session; sign-in without a session.
    func signedIn(_ request: Request, _ body: (ConsoleSession) async throws -> Response) async throws -> Response {
        guard let session = try await session(of: request) else { return ConsoleRoutes.redirect(to: Self.signInPath) }
        return try await body(session)
    }

    /// The app `request` names among the session's apps (404 for any other), the session's only
    /// app when it names none, else nil.
    static func app(of request: Request, for session: ConsoleSession) throws -> AppContext? {
        guard let named = try request.query(ConsoleLinks.appParameter) else {
            return session.hasSeveralApps ? nil : session.apps[0]
        }
        guard let app = session.apps.first(where: { $0.bundleId == named }) else { throw Self.notFound }
        return app
    }

    /// The answer of an unknown console page (the router's 404, as ``ErrorMiddleware`` writes it).
    static let notFound = ServiceError(
        .notFound, code: ErrorMiddleware.code(for: .notFound), message: HTTPResponse.Status.notFound.reasonPhrase)
}
