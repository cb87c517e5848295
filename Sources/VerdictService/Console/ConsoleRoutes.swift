import Foundation
import Hummingbird
import RuleEngine
import VerdictStorage

/// The console at `/console`: sign-in and sign-out, the style sheet, and the pages (``ConsolePages``,
/// ``ConsoleReplayPages``) for signed-in viewers and operators, each about one of the session's
/// apps (``ConsoleAccess``). Every answer carries ``ConsoleHeaders``; a page without a session
/// redirects to the sign-in form; every form is checked against its CSRF token.
struct ConsoleRoutes {
    let access: ConsoleAccess
    let tokens: TokenDirectory
    let renderer: ConsoleRenderer
    let pages: ConsolePages
    let replays: ConsoleReplayPages

    private var sessions: ConsoleSessions { access.sessions }

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.get("/console") { request, _ in
            Self.redirect(to: try await sessions.session(of: request).map(ConsoleAccess.home) ?? ConsoleRenderer.pages[0].href)
        }
        router.get("/console/assets/console.css") { _, _ in ConsoleRenderer.styleSheet }
        router.get("/console/sign-in") { request, _ in
            if let session = try await sessions.session(of: request) { return Self.redirect(to: ConsoleAccess.home(of: session)) }
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
            let token = form["token"] ?? ""
            guard let grant = tokens.grant(of: token), grant.opensConsole else {
                return signInForm(error: "This token does not open the console.", status: .unauthorized)
            }
            // The session follows the token: the console shows only the token's apps.
            let (session, cookie) = try await sessions.open(grant, token: token)
            var response = Self.redirect(to: ConsoleAccess.home(of: session))
            response.setCookie(cookie)
            response.setCookie(sessions.cookie(ConsoleSessions.signInCookieName, "", maxAge: 0))
            return response
        }
        router.post("/console/sign-out") { request, _ in
            let form = try await ConsoleForm.read(request)
            var response = Self.redirect(to: ConsoleAccess.signInPath)
            if let session = try await sessions.session(of: request), session.accepts(csrf: form["csrf"]) {
                response.setCookie(try await sessions.close(session))
            }
            return response
        }
        pages.register(on: router, access: access)
        replays.register(on: router, access: access)
    }

    /// The sign-in form, with a fresh form token in its cookie and field.
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
