import Foundation
import Hummingbird
import RuleEngine
import VerdictStorage

/// The console at `/console`: sign-in and sign-out, the style sheet, and the pages (``ConsolePages``)
/// for signed-in viewers and operators. Every answer carries ``ConsoleHeaders``; a page without a
/// session redirects to the sign-in form; every form is checked against its CSRF token.
struct ConsoleRoutes {
    let sessions: ConsoleSessions
    let tokens: TokenDirectory
    let renderer: ConsoleRenderer
    /// The API's per-token limiter, applied per signed-in session (nil: no limit).
    let limiter: RateLimiter?
    let pages: ConsolePages
    let replays: ConsoleReplayPages

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.get("/console") { _, _ in Self.redirect(to: ConsoleRenderer.pages[0].href) }
        router.get("/console/assets/console.css") { _, _ in ConsoleRenderer.styleSheet }
        router.get("/console/sign-in") { request, _ in
            if try await sessions.session(of: request) != nil { return Self.redirect(to: ConsoleRenderer.pages[0].href) }
            return signInForm(error: nil)
        }
        router.post("/console/sign-in") { request, _ in
            let form = try await ConsoleForm.read(request)
            guard let expected = request.cookies[ConsoleSessions.signInCookieName]?.value, let presented = form["csrf"],
                  ConsoleSessions.constantTimeEqual(presented, expected)
            else {
                return signInForm(error: "The form expired. Please sign in again.", status: .forbidden)
            }
            // One answer for a wrong token and for a token whose role does not open the console: no
            // hint whether a token exists.
            guard let role = tokens.role(of: form["token"] ?? ""), role != .app else {
                return signInForm(error: "This token does not open the console.", status: .unauthorized)
            }
            let (_, cookie) = try await sessions.open(role: role)
            var response = Self.redirect(to: ConsoleRenderer.pages[0].href)
            response.setCookie(cookie)
            response.setCookie(sessions.cookie(ConsoleSessions.signInCookieName, "", maxAge: 0))
            return response
        }
        router.post("/console/sign-out") { request, _ in
            let form = try await ConsoleForm.read(request)
            var response = Self.redirect(to: "/console/sign-in")
            if let session = try await sessions.session(of: request), session.accepts(csrf: form["csrf"]) {
                response.setCookie(try await sessions.close(session))
            }
            return response
        }
        pages.register(on: router) { request in try await limited(sessions.session(of: request)) }
        replays.register(on: router) { request in try await limited(sessions.session(of: request)) }
    }

    /// The sign-in form, with a fresh form token in its cookie and field.
    /// `session`, once the limiter let one more of its requests through (429 otherwise).
    private func limited(_ session: ConsoleSession?) throws -> ConsoleSession? {
        if let session, let limiter { try RateLimitMiddleware.take(limiter, key: "console:" + session.idDigest) }
        return session
    }

    private func signInForm(error: String?, status: HTTPResponse.Status = .ok) -> Response {
        let token = ConsoleSessions.randomToken()
        var response = renderer.page(
            "sign-in", title: "Sign in", session: nil, values: ["csrf": token, "error": error as Any], status: status)
        response.setCookie(sessions.cookie(ConsoleSessions.signInCookieName, token, maxAge: 3600))
        return response
    }

    /// 303 See Other to `location`, with the console's headers.
    static func redirect(to location: String) -> Response {
        Response(status: .seeOther, headers: ConsoleHeaders.page.merging([.location: location]))
    }
}
