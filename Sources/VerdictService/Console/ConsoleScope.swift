/// What a console page is about: the signed-in session and the one app the page shows, among the
/// session's apps (``ConsoleAccess`` finds it). Pages read that app's own parts — its repository
/// (which reads only its rows), its rules, its replays — and link to pages of the same app.
struct ConsoleScope: Sendable {
    let session: ConsoleSession
    let app: AppContext

    /// Links to this app's pages.
    var links: ConsoleLinks { ConsoleLinks(session: session, app: app) }
}
